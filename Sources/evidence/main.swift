import EvidenceStore
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

// A write past a file-size limit must fail with EFBIG (and exit 74), not kill the process.
ThisProcess.ignoreFileSizeLimitSignal()

let words = Array(CommandLine.arguments.dropFirst())
let environment = ThisProcess.environment(ProcessInfo.processInfo.environment)
let output = Output(environment: environment)
var status: Int32
do {
    let (command, store) = try CommandTree.parse(words, environment: environment)
    let runner = Runner(
        output: output, clock: try CommandTree.clock(environment), machine: MachineTools(environment: environment), store: store)
    status = try runner.run(command)
} catch let error as UsageError {
    output.message("Error: \(error.message)\n" + CommandTree.parser.usage(for: error.path))
    status = ExitCode.usage
} catch {
    output.message("Error: \(error)")
    status = ExitCode.code(for: error)
}
if let writeError = output.finish(), writeError != .brokenPipe {
    output.message("Error: cannot write the output: \(writeError)")
    if status == ExitCode.ok { status = ExitCode.ioError }
}
ThisProcess.exit(status)
