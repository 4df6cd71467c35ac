import Foundation

// libFuzzer target: one line of the text format, read as the record kind the
// first byte picks, must decode or be refused with an error, never crash; a
// decoded record must write back to a line that decodes to the same record.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTextFormat(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let kind = Int(start[0]) % 11
    let bytes = UnsafeRawBufferPointer(start: start + 1, count: count - 1)
    guard let value = try? JSONReader.parse(bytes), var fields = try? FieldReader(file: "fuzz.jsonl", line: 1, value: value) else {
        return 0
    }
    func roundTrip(_ line: JSONLine, _ decode: (inout FieldReader) throws -> JSONLine) {
        guard let again = try? JSONReader.parse(Data(line.object.utf8)),
            var reader = try? FieldReader(file: "again.jsonl", line: 1, value: again)
        else {
            FuzzCheck.require(false, "a decoded record wrote a line that does not parse: \(line.object)")
            return
        }
        let decoded = try? decode(&reader)
        FuzzCheck.require(decoded?.object == line.object, "a record changed on a round trip: \(line.object)")
    }
    switch kind {
    case 0: if let r = try? fields.source() { roundTrip(r.line) { try $0.source().line } }
    case 1: if let r = try? fields.capability() { roundTrip(r.line) { try $0.capability().line } }
    case 2: if let r = try? fields.claim() { roundTrip(r.line) { try $0.claim().line } }
    case 3: if let r = try? fields.lack() { roundTrip(r.line) { try $0.lack().line } }
    case 4: if let r = try? fields.ingestedFile() { roundTrip(r.line) { try $0.ingestedFile().line } }
    case 5: if let r = try? fields.run() { roundTrip(r.line) { try $0.run().line } }
    case 6: if let r = try? fields.result() { roundTrip(r.line) { try $0.result().line } }
    case 7: if let r = try? fields.labelChange() { roundTrip(r.line) { try $0.labelChange().line } }
    case 8: if let r = try? fields.checklist() { roundTrip(r.line) { try $0.checklist().line } }
    case 9: if let r = try? fields.checklistItem() { roundTrip(r.line) { try $0.checklistItem().line } }
    default: if let r = try? fields.testMapping() { roundTrip(r.line) { try $0.testMapping().line } }
    }
    return 0
}
