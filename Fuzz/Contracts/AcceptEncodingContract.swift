internal import FeedServer

/// `Accept-Encoding`: refusing gzip (`gzip;q=0`) after a list never makes gzip acceptable, accepting it (`gzip`)
/// always does, and a list said twice answers as once.
enum AcceptEncodingContract {
    static let target = FuzzTarget(
        name: "accept-encoding", contract: "gzip;q=0 never turns gzip on, gzip always does, a list twice is the same"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let header = String(decoding: bytes, as: UTF8.self)
        let accepted = AcceptEncoding.acceptsGzip(header)
        try expect(
            accepted || !AcceptEncoding.acceptsGzip(header + ",gzip;q=0"),
            "\(header.debugDescription) refused gzip, and accepted it once gzip;q=0 was added")
        try expect(AcceptEncoding.acceptsGzip(header + ",gzip"), "\(header.debugDescription), gzip refused gzip")
        try expect(
            AcceptEncoding.acceptsGzip(header + "," + header) == accepted,
            "\(header.debugDescription) twice answered otherwise")
    }
}
