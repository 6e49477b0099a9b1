import Sandbox
import Testing

/// A ruleset handles every right its kernel's ABI knows (so unlisted rights are denied) and no right the kernel
/// would refuse as unknown.
@Suite(.timeLimit(.minutes(1))) struct LandlockAccessTests {
    @Test func handledRightsGrowWithTheABI() {
        let first = LandlockAccess.handled(byABI: 1)
        #expect(first.contains([.execute, .writeFile, .readFile, .readDirectory, .makeSymlink]))
        #expect(!first.contains(.refer) && !first.contains(.truncate) && !first.contains(.ioctlDevice))
        #expect(LandlockAccess.handled(byABI: 2).contains(.refer))
        #expect(LandlockAccess.handled(byABI: 3).contains(.truncate))
        #expect(!LandlockAccess.handled(byABI: 4).contains(.ioctlDevice))
        #expect(LandlockAccess.handled(byABI: 7) == LandlockAccess(rawValue: (1 << 16) - 1))
    }

    @Test func scratchExecutesNothingAndMakesNoSpecialFiles() {
        for right: LandlockAccess in [
            .execute, .makeCharacterDevice, .makeBlockDevice, .makeFIFO, .makeSocket,
            .makeSymlink,
        ] {
            #expect(!LandlockAccess.scratch.contains(right))
        }
        #expect(LandlockAccess.read.isDisjoint(with: [.writeFile, .truncate, .execute]))
    }
}
