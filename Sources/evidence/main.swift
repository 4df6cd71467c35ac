import EvidenceStore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

// A write past a file-size limit must fail with EFBIG (and exit 74), not kill the process.
signal(SIGXFSZ, SIG_IGN)

let output = Output()
let words = Array(CommandLine.arguments.dropFirst())
var environment = ProcessInfo.processInfo.environment
// Who runs it, for testers and authors: $USER, else $LOGNAME, else the login name of the user id.
if (environment["USER"] ?? "").isEmpty {
    if let login = environment["LOGNAME"], !login.isEmpty {
        environment["USER"] = login
    } else if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name {
        environment["USER"] = String(cString: name)
    }
}
var status: Int32
do {
    let command = try CommandTree.parse(words, environment: environment)
    status = try Runner(output: output, clock: try CommandTree.clock(environment), machine: MachineTools(environment: environment))
        .run(command)
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
