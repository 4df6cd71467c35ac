import EvidenceStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// A write past a file-size limit must fail with EFBIG (and exit 74), not kill the process.
signal(SIGXFSZ, SIG_IGN)

let output = Output()
let words = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
var status: Int32
do {
    let command = try CommandTree.parse(words, environment: environment)
    status = try Runner(output: output, clock: try CommandTree.clock(environment)).run(command)
} catch let error as UsageError {
    output.message("Error: \(error.message)\n" + CommandTree.parser.usage(for: error.path))
    status = ExitCode.usage
} catch {
    output.message("Error: \(error)")
    status = ExitCode.code(for: error)
}
let writeError = output.finish()
if writeError != 0 && writeError != EPIPE {
    output.message("Error: cannot write the output: \(String(cString: strerror(writeError)))")
    if status == ExitCode.ok { status = ExitCode.ioError }
}
exit(status)
