import ChatImages
import Foundation
import MediaFixtures
import MediaModel
import TestTraits
import Testing

@Suite(.offThePool, .timeLimit(.minutes(5))) struct BatchConversionTests {
    @Test func oneBadFileDoesNotStopTheBatch() throws {
        let input = try TemporaryDirectory(), output = try TemporaryDirectory()
        try input.write("a.jpg", try SyntheticPhoto(width: 40, height: 30).jpeg())
        try input.write("a.png", try SyntheticPhoto(width: 40, height: 30).encoded(.png))
        try input.write("b.png", Array("not an image".utf8))
        try input.write("c.gif", try SyntheticPhoto(width: 40, height: 30).encoded(.gif))
        try input.write(".hidden.jpg", try SyntheticPhoto(width: 40, height: 30).jpeg())
        let plan = try BatchConversion.plan(directory: input.path, output: output.path)
        #expect(plan.count == 4)
        #expect(
            Set(plan.map { ($0.output as NSString).lastPathComponent }) == ["a.webp", "a.png.webp", "b.webp", "c.webp"])
        let outcome = BatchConversion(converter: ChatImageConverter(), quality: .medium, workers: 2).run(plan)
        #expect(outcome.converted.count == 3)
        #expect(outcome.failed.map(\.rejection?.reason) == [.unsupportedFormat])
        #expect(outcome.failed.first?.path.hasSuffix("b.png") == true)
        for result in outcome.converted { #expect(FileManager.default.fileExists(atPath: result.output)) }
        #expect(!FileManager.default.fileExists(atPath: output.file("b.webp")))
    }
}
