internal import Foundation
internal import FuzzContracts

#if REEL_FUZZING
/// libFuzzer's entry points (Fuzz/build.sh links libFuzzer's own `main`). The target is named by
/// REEL_FUZZ_TARGET; a broken contract is a crash, which libFuzzer keeps as a reproducer.
private let target: FuzzTarget = {
    let name = getenv("REEL_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget.named(name) else {
        fatalError("REEL_FUZZ_TARGET must be one of \(FuzzTarget.all.map(\.name)), not \"\(name)\"")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do throws(ContractBroken) { try target.check(bytes) } catch { fatalError("\(target.name): \(error)") }
    return 0
}
#else
/// Built plainly: `reel-fuzz TARGET FILE...` runs each file through the target's contract and says which broke it
/// (exit status 1); `reel-fuzz --list` names the targets and their contracts.
@main struct FuzzReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--list" {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.contract)") }
            return
        }
        guard let name = arguments.first, let target = FuzzTarget.named(name) else {
            FileHandle.standardError.write(
                Data("usage: reel-fuzz TARGET FILE... | --list; targets: \(FuzzTarget.all.map(\.name))\n".utf8))
            exit(2)
        }
        var broken = 0
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("reel-fuzz: cannot read \(path)\n".utf8))
                exit(2)
            }
            do throws(ContractBroken) { try target.check(Array(data)) } catch {
                print("\(path): \(error)")
                broken += 1
            }
        }
        exit(broken == 0 ? 0 : 1)
    }
}
#endif
