import Testing

@testable import SigV4

/// AWS's own published examples, with the signatures AWS printed: the S3 documentation's GET object with a Range
/// header and its presigned URL (access key AKIAIOSFODNN7EXAMPLE, 2013-05-24), and `get-vanilla` from the SigV4 test
/// suite (AKIDEXAMPLE, 2015-08-30).
@Suite(.timeLimit(.minutes(5))) struct SigV4ExampleTests {
    static let s3 = SigV4Signer(
        credentials: SigV4Credentials(
            accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")
    /// 2013-05-24T00:00:00Z.
    static let may24 = AmzDate(unixSeconds: 1_369_353_600)

    @Test func theDatesAreTheExamplesOwn() {
        #expect(Self.may24.timestamp == "20130524T000000Z" && Self.may24.day == "20130524")
        #expect(AmzDate(unixSeconds: 1_440_938_160).timestamp == "20150830T123600Z")
    }

    @Test func s3GetObjectWithARange() throws {
        let request = SigV4Request(
            method: "GET", path: "/test.txt",
            headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9")])
        let headers = try Self.s3.signedHeaders(
            for: request, payloadHash: SigV4Signer.emptyPayloadHash, date: Self.may24)
        let authorization = try #require(headers.first { $0.name == "Authorization" }?.value)
        #expect(
            authorization
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(headers.contains { $0 == ("x-amz-date", "20130524T000000Z") })
        #expect(headers.contains { $0 == ("x-amz-content-sha256", SigV4Signer.emptyPayloadHash) })
    }

    @Test func s3PresignedGetObject() throws {
        let request = SigV4Request(
            method: "GET", path: "/test.txt", headers: [("Host", "examplebucket.s3.amazonaws.com")])
        let query = try Self.s3.presignedQuery(for: request, expires: 86_400, date: Self.may24)
        #expect(
            query
                == "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2F"
                + "aws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test func getVanillaFromTheSigV4TestSuite() throws {
        let signer = SigV4Signer(
            credentials: SigV4Credentials(
                accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1", service: "service")
        let request = SigV4Request(method: "GET", path: "/", headers: [("Host", "example.amazonaws.com")])
        let headers = try signer.signedHeaders(
            for: request, payloadHash: SigV4Signer.emptyPayloadHash,
            date: AmzDate(unixSeconds: 1_440_938_160))
        #expect(!headers.contains { $0.name == "x-amz-content-sha256" }, "only S3 signs the payload header")
        #expect(
            headers.first { $0.name == "Authorization" }?.value
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=host;x-amz-date, "
                + "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
    }

    @Test func expiryAndHostAreChecked() {
        let request = SigV4Request(method: "GET", path: "/k", headers: [("Host", "h")])
        for expires in [0, -1, SigV4Signer.maxExpirySeconds + 1] {
            #expect(throws: SigV4Error.self) {
                try Self.s3.presignedQuery(for: request, expires: expires, date: Self.may24)
            }
        }
        #expect(throws: SigV4Error.self) {
            try Self.s3.signedHeaders(
                for: SigV4Request(method: "GET", path: "/k", headers: []), payloadHash: SigV4Signer.emptyPayloadHash,
                date: Self.may24)
        }
    }

    @Test func theSecretNeverAppearsInADescription() {
        let credentials = SigV4Credentials(accessKeyID: "AKID", secretAccessKey: "s3cr3t-value", sessionToken: "tok")
        for text in ["\(credentials)", String(reflecting: credentials), "\([credentials])"] {
            #expect(!text.contains("s3cr3t-value") && !text.contains("tok"), "\(text)")
        }
    }
}
