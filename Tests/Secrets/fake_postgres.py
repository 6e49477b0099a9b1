#!/usr/bin/env python3
"""A PostgreSQL server that only asks for a password and writes down what it is given.

Listens on 127.0.0.1 (port 0: the chosen port is printed on the first line), answers each client's StartupMessage with
AuthenticationCleartextPassword, prints the user and database from the startup and the password the client sent as one
JSON line, then refuses the login (FATAL 28P01) and closes. An SSLRequest is answered 'N'. Stops after --seconds.
"""
import argparse, json, socket, struct, sys

def read_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data

def serve(connection):
    while True:
        length, code = struct.unpack("!ii", read_exactly(connection, 8))
        body = read_exactly(connection, length - 8)
        if code == 80877103:  # SSLRequest
            connection.sendall(b"N")
            continue
        break
    fields = body.split(b"\x00")
    startup = dict(zip(fields[0::2], fields[1::2]))
    connection.sendall(b"R" + struct.pack("!ii", 8, 3))
    kind = read_exactly(connection, 1)
    (length,) = struct.unpack("!i", read_exactly(connection, 4))
    password = read_exactly(connection, length - 4).rstrip(b"\x00").decode()
    print(json.dumps({"user": startup.get(b"user", b"").decode(), "database": startup.get(b"database", b"").decode(),
                      "kind": kind.decode(), "password": password}), flush=True)
    error = b"SFATAL\x00C28P01\x00Mpassword authentication failed (fake_postgres.py)\x00\x00"
    connection.sendall(b"E" + struct.pack("!i", len(error) + 4) + error)

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=120)
    arguments = parser.parse_args()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(arguments.seconds)
    print(listener.getsockname()[1], flush=True)
    while True:
        try:
            connection, _ = listener.accept()
        except socket.timeout:
            return
        with connection:
            connection.settimeout(10)
            try:
                serve(connection)
            except (EOFError, OSError, struct.error):
                pass

if __name__ == "__main__":
    sys.exit(main())
