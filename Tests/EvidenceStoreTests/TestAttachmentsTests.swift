import Foundation
import Testing

@testable import EvidenceStore

@Suite struct TestAttachmentsTests {
    /// A test's metrics on a device go to its first result there, however the
    /// manifest counts repetitions (from 0 or from 1); attachments of a
    /// repetition go to that repetition only.
    @Test func metricsGoToTheFirstRepetitionHoweverTheManifestCounts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("second.txt")
        try Data("clock y=171pt\n".utf8).write(to: file)
        for first in [0, 1] {
            var attachment = XCResultBundle.Attachment(test: "T/testA()", file: file.path, name: "evidence-measurements")
            attachment.repetition = first + 1
            let metric = MeasurementDraft(name: "Time", value: 0.25, unit: .s)
            let run = TestMetrics.Run(test: "T/testA()", deviceID: nil, deviceName: nil, measurements: [metric])
            // A manifest counting from 0 says so with a repetition 0 elsewhere.
            var zero = XCResultBundle.Attachment(test: "T/testA()", file: file.path, name: "evidence-measurements_0")
            zero.repetition = first == 0 ? 0 : 1
            var attachments = try TestAttachments(
                first == 0 ? [attachment, zero] : [attachment], metrics: [run], storeFolder: folder,
                storePath: folder.appendingPathComponent("evidence.sqlite").path)
            let one = attachments.next(for: "T/testA()", device: TestReport.Device(), index: 0)
            let two = attachments.next(for: "T/testA()", device: TestReport.Device(), index: 0)
            #expect(one.measurements.map(\.name).contains("Time"), "counting from \(first)")
            #expect(!two.measurements.map(\.name).contains("Time"), "counting from \(first)")
            #expect(two.measurements.map(\.name) == ["clock y"], "counting from \(first)")
            #expect(attachments.untaken.isEmpty, "counting from \(first)")
        }
    }

    /// A measurements attachment past its limit is refused naming the attachment and its test.
    @Test func anOversizedMeasurementsAttachmentIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.txt")
        try Data(repeating: UInt8(ascii: "\n"), count: TestAttachments.measurementsLimit + 1).write(to: file)
        let attachment = XCResultBundle.Attachment(test: "T/testA()", file: file.path, name: "evidence-measurements")
        #expect {
            _ = try TestAttachments(
                [attachment], metrics: [], storeFolder: folder, storePath: folder.appendingPathComponent("e.sqlite").path)
        } throws: { error in
            "\(error)".contains("the attachment 'evidence-measurements' of T/testA() is over the limit of \(TestAttachments.measurementsLimit) bytes")
        }
    }
}
