import Testing

@testable import ObjectStore

@Suite(.timeLimit(.minutes(5))) struct S3XMLTests {
    @Test func valuesAreFoundInOrderWithEntitiesDecoded() {
        let xml = "<R><Key>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#252;&#x1F3AC;</Key><Key/><Key>z</Key></R>"
        #expect(S3XML.values("Key", in: xml[...]) == ["a & b <c> \"d\" 'e' ü🎬", "", "z"])
        #expect(S3XML.value("Missing", in: xml[...]) == nil)
        #expect(S3XML.decodeEntities("&bogus; &amp &#xZZ; &") == "&bogus; &amp &#xZZ; &")
    }

    @Test func escapingRoundTrips() {
        let text = "\"quoted-etag\" & <tag> 'x'"
        #expect(S3XML.decodeEntities(S3XML.escape(text)[...]) == text)
    }

    @Test func aListingPageReadsEntriesAndItsToken() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>lib/</Prefix>
            <IsTruncated>true</IsTruncated><NextContinuationToken>tok&amp;1</NextContinuationToken>
            <Contents><Key>lib/videos/a/master.m3u8</Key><LastModified>2026-11-27T10:00:00.000Z</LastModified>
            <ETag>&quot;abc&quot;</ETag><Size>812</Size><StorageClass>STANDARD</StorageClass></Contents>
            <Contents><Key>lib/videos/a/seg 1.m4s</Key><ETag>"d-2"</ETag><Size>1048576</Size></Contents>
            </ListBucketResult>
            """
        let page = try S3Listing(xml: xml, droppingPrefix: "lib/")
        #expect(page.nextToken == "tok&1")
        #expect(page.objects.map(\.key) == ["videos/a/master.m3u8", "videos/a/seg 1.m4s"])
        #expect(page.objects.map(\.size) == [812, 1_048_576] && page.objects[0].etag == "\"abc\"")
    }

    @Test func aListingThatCannotBeFollowedIsRefused() {
        for xml in [
            "<Error><Code>AccessDenied</Code></Error>",
            "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
            "<ListBucketResult><Contents><Key>k</Key></Contents></ListBucketResult>",
        ] {
            #expect(throws: ObjectStoreError.self) { try S3Listing(xml: xml, droppingPrefix: "") }
        }
        #expect(
            (try? S3Listing(
                xml: "<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>", droppingPrefix: ""))?
                .objects == [])
    }
}
