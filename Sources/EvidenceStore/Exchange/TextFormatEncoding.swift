/// How each record of the text format is written: one JSON object on one
/// line, fields in a fixed order, empty optional fields left out.
extension TextFormat.Source {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("url", url)
        line.add("title", title)
        line.add("publisher", publisher)
        line.add("kind", kind)
        line.add("published", published)
        line.add("updated", updated)
        line.add("retrieved", retrieved)
        line.add(stamp: changed)
        return line
    }
}

extension TextFormat.Capability {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("name", name)
        line.add("description", description)
        line.add(stamp: changed)
        return line
    }
}

extension TextFormat.SourceReference {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("url", url)
        line.addNonEmpty("locator", locator)
        return line
    }
}

extension TextFormat.Claim {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("key", key)
        line.add("document", document)
        line.add("area", area)
        line.add("label", label)
        line.add("labelled_at", labelledAt)
        line.add("as_of", asOf)
        line.add("statement", statement)
        line.add("sources", objects: sources.map(\.line))
        line.add("needs", strings: needs)
        line.add("models", strings: models)
        line.addNonEmpty("owner", owner)
        if !expectations.isEmpty {
            line.add("expect", objects: expectations.map { expected in
                var item = JSONLine()
                item.add("name", expected.name)
                item.add("value", expected.value)
                item.add("unit", expected.unit.rawValue)
                item.add("tolerance", expected.tolerance)
                // Only a one-sided value says so: a file of two-sided values reads as before.
                if expected.bound != .within { item.add("bound", expected.bound.rawValue) }
                return item
            })
        }
        line.add(stamp: changed)
        return line
    }
}

extension TextFormat.Lack {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("kind", kind)
        line.add("model", model)
        line.addNonEmpty("tool_build", toolBuild)
        line.add("capability", capability)
        if status != CapabilityStatus.lacks.rawValue { line.add("status", status) }
        line.add("source", source)
        line.add("reported_in", reportedIn)
        line.addNonEmpty("note", note)
        line.add(stamp: changed)
        return line
    }
}

extension TextFormat.Document {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("document", document)
        line.add("models", strings: models)
        return line
    }
}

extension TextFormat.IngestedFile {
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

extension EnvironmentSpec {
    /// The environment as a run's record writes it.
    public var line: JSONLine {
        var line = JSONLine()
        line.add("kind", kind.rawValue)
        line.add("model", model)
        line.addNonEmpty("os_name", osName)
        line.addNonEmpty("os_version", osVersion)
        line.addNonEmpty("os_build", osBuild)
        line.addNonEmpty("tool_name", toolName)
        line.addNonEmpty("tool_version", toolVersion)
        line.addNonEmpty("tool_build", toolBuild)
        return line
    }
}

extension TextFormat.Measurement {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("name", name)
        line.add("value", value)
        line.add("unit", unit)
        line.add("baseline", baseline)
        line.add("posture", posture)
        line.add("samples", samples)
        line.add("standard_deviation", standardDeviation)
        return line
    }
}

extension TextFormat.Attachment {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("path", path)
        line.add("sha256", sha256)
        line.add("size", size)
        line.add("media_type", mediaType)
        line.addFlag("with_failure", withFailure)
        return line
    }
}

extension JSONLine {
    /// What every version writes after a result's outcome and dates.
    mutating func addResultDetails(
        note: String, testID: String?, duration: Double?, message: String?, measurements: [TextFormat.Measurement],
        attachments: [TextFormat.Attachment]
    ) {
        addNonEmpty("note", note)
        add("test_id", testID)
        add("duration", duration)
        add("message", message)
        add("measurements", objects: measurements.map(\.line))
        add("attachments", objects: attachments.map(\.line))
    }
}

extension TextFormat.Checklist {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("document", document)
        line.add("title", title)
        line.add(stamp: changed)
        return line
    }
}

extension TextFormat.ChecklistItem {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("checklist", checklist)
        line.add("position", position)
        line.add("key", key)
        line.add("text", text)
        line.add("claims", strings: claims)
        if let mark {
            var object = JSONLine()
            object.add("reason", mark.reason)
            object.add("by", mark.by)
            object.add("at", mark.at)
            line.add(mark.kind.rawValue, object: object)
        }
        line.add(stamp: changed)
        return line
    }
}

extension TextFormat.TestMapping {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("pattern", pattern)
        line.add("claim", claim)
        return line
    }
}

// MARK: - Version 2

extension TextFormat.ProvedStatement {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("claim", claim)
        line.add("sha256", sha256)
        line.add("statement", statement)
        return line
    }
}

extension TextFormat.Change {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("change", uuid)
        line.add("claim", claim)
        line.add("follows", follows)
        line.add("old_label", oldLabel)
        line.add("new_label", newLabel)
        line.add("changed_by", changedBy)
        line.add("changed_at", changedAt)
        line.add("reason", reason)
        return line
    }
}

extension TextFormat.RunHeader {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("run", uuid)
        line.add("started_at", startedAt)
        line.add("environment", object: environment.line)
        line.addNonEmpty("tester", tester)
        line.addNonEmpty("note", note)
        line.add("ingested_file", object: ingestedFile?.line)
        return line
    }
}

extension TextFormat.ResultLine {
    /// Of one file ingested on two machines in the same second (their runs'
    /// records agree), whose results stand: the side whose first differing
    /// result was recorded first, then the smaller line. Import and the merge
    /// driver both decide by it, so every clone ends the same.
    static func recordedFirst(_ a: Self, _ b: Self) -> Bool {
        let (first, second) = (a.line.object, b.line.object)
        return (a.recordedAt, first) <= (b.recordedAt, second)
    }

    public var line: JSONLine {
        var line = JSONLine()
        line.add("result", uuid)
        line.add("claim", claim)
        line.add("statement", statement)
        line.add("outcome", result)
        line.add("posture", posture)
        line.add("checked_at", checkedAt)
        line.add("recorded_at", recordedAt)
        line.addFlag("judged", judged)
        line.addResultDetails(
            note: note, testID: testID, duration: duration, message: message, measurements: measurements,
            attachments: attachments)
        return line
    }
}

extension TextFormat.LinkLine {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("link", uuid)
        line.add("result", result)
        line.add("url", url)
        line.add("by", by)
        line.add("at", at)
        return line
    }
}

extension TextFormat.UnlinkLine {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("unlink", uuid)
        line.add("link", link)
        line.add("by", by)
        line.add("at", at)
        line.add("reason", reason)
        return line
    }
}

extension TextFormat.Rename {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("rename", uuid)
        line.add("from", from)
        line.add("to", to)
        line.add("by", by)
        line.add("at", at)
        line.addNonEmpty("reason", reason)
        return line
    }
}

extension TextFormat.Retirement {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("retirement", uuid)
        line.add("claim", claim)
        line.add("action", action.rawValue)
        line.add("by", by)
        line.add("at", at)
        line.addNonEmpty("reason", reason)
        return line
    }
}

extension TextFormat.CorrectionLine {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("correction", uuid)
        line.add("os_build", osBuild)
        line.add("by", by)
        line.add("at", at)
        line.add("reason", reason)
        return line
    }
}

extension TextFormat.RetractionLine {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("retraction", uuid)
        line.add("result", result)
        line.add("by", by)
        line.add("at", at)
        line.add("reason", reason)
        return line
    }
}
