import Testing

@testable import ObjectStore

@Suite(.timeLimit(.minutes(5))) struct S3LocationTests {
    @Test func aLocalStoreIsPathStyleAtItsEndpoint() throws {
        let location = try S3Location(
            parsing: "s3://reel-media/library/v1?endpoint=http://127.0.0.1:8333&region=eu-west-3")
        #expect(location.bucket == "reel-media" && location.prefix == "library/v1" && location.region == "eu-west-3")
        #expect(location.endpoint == S3Endpoint(secure: false, host: "127.0.0.1", port: 8333))
        #expect(location.pathStyle)
        #expect(location.fullKey(try ObjectKey("videos/a/master.m3u8")) == "library/v1/videos/a/master.m3u8")
    }

    @Test func awsIsVirtualHostedInItsRegion() throws {
        let location = try S3Location(parsing: "s3://reel-media")
        #expect(location.prefix == "" && location.region == "us-east-1" && !location.pathStyle)
        #expect(location.endpoint.authority(prefixedWith: location.bucket) == "reel-media.s3.us-east-1.amazonaws.com")
        #expect(location.fullKey(try ObjectKey("images/x.webp")) == "images/x.webp")
    }

    @Test func flagsWinOverTheQueryAndTrailingSlashesGo() throws {
        let location = try S3Location(
            parsing: "s3://bucket/p/?endpoint=http://a:1&region=r1&path_style=true", endpoint: "https://b",
            region: "r2", pathStyle: false)
        #expect(location.prefix == "p" && location.region == "r2" && !location.pathStyle)
        #expect(location.endpoint.authority() == "b" && location.endpoint.secure)
        let escaped = try S3Location(parsing: "s3://bucket?endpoint=http%3A%2F%2F127.0.0.1%3A9000")
        #expect(escaped.endpoint.port == 9000)
    }

    @Test(arguments: [
        ("file:///tmp/x", "not an s3:// URL"),
        ("s3://", "3 to 63"),
        ("s3://ab", "3 to 63"),
        ("s3://Upper", "lowercase"),
        ("s3://-bucket", "starts and ends"),
        ("s3://bucket/../x", "'..'"),
        ("s3://bucket/a//b", "empty path component"),
        ("s3://bucket?secret=x", "unknown setting 'secret'"),
        ("s3://bucket?path_style=yes", "true or false"),
        ("s3://bucket?region=EU", "region 'EU'"),
        ("s3://bucket?endpoint=ftp://x", "http:// or https://"),
        ("s3://bucket?endpoint=http://x/path", "no path"),
        ("s3://bucket?endpoint=http://user@x", "no path, query, user"),
        ("s3://bucket?endpoint=http://x:70000", "port outside"),
        ("s3://bucket?endpoint=%ZZ", "percent escape"),
    ])
    func badLocationsSayWhatIsWrong(text: String, expected: String) {
        #expect {
            try S3Location(parsing: text)
        } throws: { error in
            guard let error = error as? ObjectStoreError else { return false }
            return error.reason == .badLocation && error.description.contains(expected)
        }
    }

    @Test func theDescriptionIsAUsableURLWithNoSecret() throws {
        let location = try S3Location(parsing: "s3://bucket/pre?endpoint=http://127.0.0.1:8333")
        #expect(
            location.description == "s3://bucket/pre?endpoint=http://127.0.0.1:8333&region=us-east-1&path_style=true")
        #expect(
            try S3Location(parsing: "s3://bucket?endpoint=https://s3.example:443").endpoint.authority() == "s3.example")
        #expect(try S3Location(parsing: location.description) == location)
    }
}
