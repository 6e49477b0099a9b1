package import SigV4

/// Finds the access key the way AWS's tools do, minus the command line: `AWS_ACCESS_KEY_ID` and
/// `AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`) from the environment, or else the profile `AWS_PROFILE`
/// (`default` when unset) of the credentials file at `AWS_SHARED_CREDENTIALS_FILE` (`~/.aws/credentials` when unset).
package enum CredentialSource {
    /// - Parameters:
    ///   - environment: the process's environment.
    ///   - readFile: the text of a file, or nil when it cannot be read.
    /// - Throws: `ObjectStoreError` `.missingCredentials` saying where it looked, never echoing a secret.
    package static func resolve(
        environment: [String: String], readFile: (String) -> String?
    ) throws(ObjectStoreError) -> SigV4Credentials {
        let id = environment["AWS_ACCESS_KEY_ID"] ?? ""
        let secret = environment["AWS_SECRET_ACCESS_KEY"] ?? ""
        if !id.isEmpty || !secret.isEmpty {
            guard !id.isEmpty, !secret.isEmpty else {
                throw ObjectStoreError(
                    .missingCredentials,
                    "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must both be set (only \(id.isEmpty ? "the secret" : "the key id") is)"
                )
            }
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return SigV4Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
        }
        let path =
            environment["AWS_SHARED_CREDENTIALS_FILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? "") + "/.aws/credentials"
        let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        guard let text = readFile(path) else {
            throw ObjectStoreError(
                .missingCredentials,
                "no S3 credentials: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY are unset and \(path) cannot be read")
        }
        let values = profileValues(text, profile: profile)
        guard let fileID = values["aws_access_key_id"], !fileID.isEmpty,
            let fileSecret = values["aws_secret_access_key"], !fileSecret.isEmpty
        else {
            throw ObjectStoreError(
                .missingCredentials,
                "no S3 credentials: profile [\(profile)] of \(path) lacks aws_access_key_id or aws_secret_access_key")
        }
        return SigV4Credentials(
            accessKeyID: fileID, secretAccessKey: fileSecret,
            sessionToken: values["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The `key = value` lines of `[profile]` in an INI credentials file (names lower-cased; `#` and `;` lines are
    /// comments). Pure.
    static func profileValues(_ text: String, profile: String) -> [String: String] {
        var values: [String: String] = [:]
        var inProfile = false
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                inProfile = line.dropFirst().dropLast().trimmingSpaces() == profile
                continue
            }
            guard inProfile, let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingSpaces().lowercased()
            values[name] = String(line[line.index(after: equals)...].trimmingSpaces())
        }
        return values
    }
}

extension StringProtocol {
    func trimmingSpaces() -> Substring {
        let text = String(self)[...]
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = text.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = text.lastIndex(where: { !isSpace($0) })!
        return text[start...end]
    }
}
