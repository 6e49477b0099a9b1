internal import ChatImages
internal import Foundation
internal import MediaModel
internal import Transcode

/// A preset file (`Presets/*.json`, or one given with `--preset`), read as each of the four preset types: it is refused
/// with an error that names the file, or it is a preset that passes its own rules and, written out again, reads back
/// equal.
enum PresetContract {
    static let target = FuzzTarget(
        name: "preset", contract: "a read preset passes its rules and round-trips; a refusal names the file"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        try roundTrip(AdmissionLimits.self, bytes)
        try roundTrip(LadderPreset.self, bytes)
        try roundTrip(CompressPreset.self, bytes)
        try roundTrip(ImagePresets.self, bytes)
    }

    private static func roundTrip<Preset: PresetFile & Equatable>(
        _ type: Preset.Type, _ bytes: [UInt8]
    ) throws(ContractBroken) {
        let file = "fuzz/" + Preset.fileName
        let preset: Preset
        do throws(PresetError) { preset = try PresetLoader.decode(type, from: bytes, file: file) } catch {
            try expect(error.description.contains(file), "\(Preset.self): the refusal \(error) does not name the file")
            return
        }
        var check = PresetCheck()
        preset.validate(&check)
        try expect(check.problems.isEmpty, "\(Preset.self) was read with problems: \(check.problems)")
        let written: Data
        do { written = try JSONEncoder().encode(preset) } catch {
            throw ContractBroken("\(Preset.self) read from the input does not encode: \(error)")
        }
        do {
            let again = try PresetLoader.decode(type, from: Array(written), file: file)
            try expect(again == preset, "\(Preset.self) written out and read back is another preset")
        } catch let error as ContractBroken {
            throw error
        } catch {
            throw ContractBroken("\(Preset.self) written out is refused: \(error)")
        }
    }
}
