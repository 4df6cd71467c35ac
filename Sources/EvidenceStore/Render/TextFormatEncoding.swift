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
        return line
    }
}

extension TextFormat.Capability {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("name", name)
        line.add("description", description)
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
        line.add("as_of", asOf)
        line.add("statement", statement)
        line.add("sources", objects: sources.map(\.line))
        line.add("needs", strings: needs)
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
        line.add("source", source)
        line.add("reported_in", reportedIn)
        line.addNonEmpty("note", note)
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

extension TextFormat.Run {
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

extension TextFormat.Measurement {
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

extension TextFormat.Attachment {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("path", path)
        line.add("sha256", sha256)
        line.add("size", size)
        line.add("media_type", mediaType)
        return line
    }
}

extension TextFormat.Result {
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

extension TextFormat.Retraction {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("uuid", uuid)
        line.add("run", run)
        if let n { line.add("n", n) }
        line.add("by", by)
        line.add("at", at)
        line.add("reason", reason)
        return line
    }
}

extension TextFormat.LabelChange {
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

extension TextFormat.Checklist {
    public var line: JSONLine {
        var line = JSONLine()
        line.add("document", document)
        line.add("title", title)
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
