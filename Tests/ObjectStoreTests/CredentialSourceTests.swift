import SigV4
import Testing

@testable import ObjectStore

@Suite(.timeLimit(.minutes(5))) struct CredentialSourceTests {
    static let noFile: @Sendable (String) -> String? = { _ in nil }

    @Test func theEnvironmentComesFirst() throws {
        let credentials = try CredentialSource.resolve(
            environment: ["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s3cr3t", "AWS_SESSION_TOKEN": "tok"],
            readFile: { _ in "[default]\naws_access_key_id = FILE\naws_secret_access_key = FILESECRET\n" })
        #expect(credentials == SigV4Credentials(accessKeyID: "AKID", secretAccessKey: "s3cr3t", sessionToken: "tok"))
    }

    @Test func halfAPairInTheEnvironmentIsAnErrorThatShowsNoSecret() {
        #expect {
            try CredentialSource.resolve(environment: ["AWS_SECRET_ACCESS_KEY": "s3cr3t"], readFile: Self.noFile)
        } throws: { error in
            let error = error as? ObjectStoreError
            return error?.reason == .missingCredentials && error?.description.contains("s3cr3t") == false
                && error?.description.contains("AWS_ACCESS_KEY_ID") == true
        }
    }

    @Test func theFileGivesTheNamedProfile() throws {
        let file = """
            # comment
            [default]
            aws_access_key_id=DEFAULTID
            aws_secret_access_key=DEFAULTSECRET

            [reel]
              AWS_ACCESS_KEY_ID = REELID\r
            ; another comment
            aws_secret_access_key = a/b+c=d
            aws_session_token=
            """
        var asked: [String] = []
        let credentials = try CredentialSource.resolve(
            environment: ["HOME": "/home/r", "AWS_PROFILE": "reel"],
            readFile: {
                asked.append($0)
                return file
            })
        #expect(asked == ["/home/r/.aws/credentials"])
        #expect(credentials == SigV4Credentials(accessKeyID: "REELID", secretAccessKey: "a/b+c=d", sessionToken: nil))
        let fallback = try CredentialSource.resolve(
            environment: ["AWS_SHARED_CREDENTIALS_FILE": "/etc/reel/creds"],
            readFile: { $0 == "/etc/reel/creds" ? file : nil })
        #expect(fallback.accessKeyID == "DEFAULTID")
    }

    @Test func aMissingFileOrProfileSaysWhereItLooked() {
        #expect {
            try CredentialSource.resolve(environment: ["HOME": "/nowhere"], readFile: Self.noFile)
        } throws: { error in
            (error as? ObjectStoreError)?.description.contains("/nowhere/.aws/credentials") == true
        }
        #expect {
            try CredentialSource.resolve(environment: ["AWS_PROFILE": "ghost"], readFile: { _ in "[default]\n" })
        } throws: { error in
            (error as? ObjectStoreError)?.description.contains("[ghost]") == true
        }
    }
}
