/// The records of the text format and how each is written as one JSON line.
/// Export writes these; import reads them back and compares them with `==`.
extension TextFormat {
    public struct Source: Equatable, Sendable {
        public var url, title, publisher, kind: String
        public var published, updated, retrieved: String?

        public var line: JSONLine {
            var line = JSONLine()
            line.add("url", url)
            line.add("title", title)
            line.add("publisher", publisher)
            line.add("kind", kind)
            line.add("published", published)
            line.add("updated", updated)
            line.add("retrieved", retrieved)
            return line
        }
    }

    public struct Capability: Equatable, Sendable {
        public var name, description: String

        public var line: JSONLine {
            var line = JSONLine()
            line.add("name", name)
            line.add("description", description)
            return line
        }
    }

    public struct SourceReference: Equatable, Comparable, Sendable {
        public var url: String
        public var locator: String

        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.url, lhs.locator) < (rhs.url, rhs.locator)
        }

        public var line: JSONLine {
            var line = JSONLine()
            line.add("url", url)
            line.addNonEmpty("locator", locator)
            return line
        }
    }

    public struct Claim: Equatable, Sendable {
        public var key, document, area, label: String
        public var asOf: String?
        public var statement: String
        /// Sorted by URL, then locator.
        public var sources: [SourceReference]
        /// Sorted by name.
        public var needs: [String]

        public var line: JSONLine {
            var line = JSONLine()
            line.add("key", key)
            line.add("document", document)
            line.add("area", area)
            line.add("label", label)
            line.add("as_of", asOf)
            line.add("statement", statement)
            line.add("sources", objects: sources.map(\.line))
            line.add("needs", strings: needs)
            return line
        }
    }

    public struct Lack: Equatable, Sendable {
        public var kind, model, toolBuild, capability: String
        public var source, reportedIn: String?
        public var note: String

        public var line: JSONLine {
            var line = JSONLine()
            line.add("kind", kind)
            line.add("model", model)
            line.addNonEmpty("tool_build", toolBuild)
            line.add("capability", capability)
            line.add("source", source)
            line.add("reported_in", reportedIn)
            line.addNonEmpty("note", note)
            return line
        }
    }

    public struct IngestedFile: Equatable, Sendable {
        public var sha256, fileName, format: String
        public var testCount: Int64
        public var ingestedAt: String

        public var line: JSONLine {
            var line = JSONLine()
            line.add("sha256", sha256)
            line.add("file_name", fileName)
            line.add("format", format)
            line.add("test_count", testCount)
            line.add("ingested_at", ingestedAt)
            return line
        }
    }

    public struct Run: Equatable, Sendable {
        public var uuid: String
        public var startedAt: String?
        public var environment: EnvironmentSpec
        public var tester, note: String
        public var ingestedFile: String?

        public var line: JSONLine {
            var environmentLine = JSONLine()
            environmentLine.add("kind", environment.kind.rawValue)
            environmentLine.add("model", environment.model)
            environmentLine.addNonEmpty("os_name", environment.osName)
            environmentLine.addNonEmpty("os_version", environment.osVersion)
            environmentLine.addNonEmpty("os_build", environment.osBuild)
            environmentLine.addNonEmpty("tool_name", environment.toolName)
            environmentLine.addNonEmpty("tool_version", environment.toolVersion)
            environmentLine.addNonEmpty("tool_build", environment.toolBuild)
            var line = JSONLine()
            line.add("uuid", uuid)
            line.add("started_at", startedAt)
            line.add("environment", object: environmentLine)
            line.addNonEmpty("tester", tester)
            line.addNonEmpty("note", note)
            line.add("ingested_file", ingestedFile)
            return line
        }
    }

    public struct Measurement: Equatable, Sendable {
        public var name: String
        public var value: Double
        public var unit: String
        public var baseline: Double?
        public var posture: String?

        public var line: JSONLine {
            var line = JSONLine()
            line.add("name", name)
            line.add("value", value)
            line.add("unit", unit)
            line.add("baseline", baseline)
            line.add("posture", posture)
            return line
        }
    }

    public struct Attachment: Equatable, Sendable {
        public var path, sha256: String
        public var size: Int64
        public var mediaType: String

        public var line: JSONLine {
            var line = JSONLine()
            line.add("path", path)
            line.add("sha256", sha256)
            line.add("size", size)
            line.add("media_type", mediaType)
            return line
        }
    }

    /// A result is the n-th (from 1) of its run, in the order it was recorded.
    public struct Result: Equatable, Sendable {
        public var run: String
        public var n: Int64
        public var claim: String?
        public var result: String
        public var posture: String?
        public var checkedAt: String?
        public var note: String
        public var testID: String?
        public var duration: Double?
        public var message: String?
        public var measurements: [Measurement]
        public var attachments: [Attachment]

        public var line: JSONLine {
            var line = JSONLine()
            line.add("run", run)
            line.add("n", n)
            line.add("claim", claim)
            line.add("result", result)
            line.add("posture", posture)
            line.add("checked_at", checkedAt)
            line.addNonEmpty("note", note)
            line.add("test_id", testID)
            line.add("duration", duration)
            line.add("message", message)
            line.add("measurements", objects: measurements.map(\.line))
            line.add("attachments", objects: attachments.map(\.line))
            return line
        }
    }

    /// A label change is the n-th (from 1) of its claim's history.
    public struct LabelChange: Equatable, Sendable {
        public var claim: String
        public var n: Int64
        public var oldLabel: String?
        public var newLabel, changedBy, changedAt, reason: String

        public var line: JSONLine {
            var line = JSONLine()
            line.add("claim", claim)
            line.add("n", n)
            line.add("old_label", oldLabel)
            line.add("new_label", newLabel)
            line.add("changed_by", changedBy)
            line.add("changed_at", changedAt)
            line.add("reason", reason)
            return line
        }
    }

    public struct Checklist: Equatable, Sendable {
        public var document, title: String

        public var line: JSONLine {
            var line = JSONLine()
            line.add("document", document)
            line.add("title", title)
            return line
        }
    }

    public struct UntestedMark: Equatable, Sendable {
        public var reason, by, at: String
    }

    public struct ChecklistItem: Equatable, Sendable {
        public var checklist: String
        public var position: Int64
        public var key, text: String
        /// Sorted claim keys.
        public var claims: [String]
        public var untested: UntestedMark?

        public var line: JSONLine {
            var line = JSONLine()
            line.add("checklist", checklist)
            line.add("position", position)
            line.add("key", key)
            line.add("text", text)
            line.add("claims", strings: claims)
            if let untested {
                var mark = JSONLine()
                mark.add("reason", untested.reason)
                mark.add("by", untested.by)
                mark.add("at", untested.at)
                line.add("untested", object: mark)
            }
            return line
        }
    }

    public struct TestMapping: Equatable, Sendable {
        public var pattern, claim: String

        public var line: JSONLine {
            var line = JSONLine()
            line.add("pattern", pattern)
            line.add("claim", claim)
            return line
        }
    }
}
