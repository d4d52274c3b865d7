import HabitCore

/// A named finding about a photo that sends it to review: never approved straight
/// away, never rejected for it alone.
package struct Signal: Equatable, Sendable {
    package var name: String
    package var message: String

    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }
}

/// Where and when the engine received a proof, as the plugin is told.
package struct Receipt: Equatable, Sendable {
    package var atMs: Int64
    /// The store's day the proof counts for (days since 1970), nil when testing.
    package var day: Int32?
    package var utcOffsetSeconds: Int64
    package var dayStartMinutes: Int32

    package init(atMs: Int64, day: Int32?, utcOffsetSeconds: Int64, dayStartMinutes: Int32) {
        self.atMs = atMs
        self.day = day
        self.utcOffsetSeconds = utcOffsetSeconds
        self.dayStartMinutes = dayStartMinutes
    }
}

/// The screenshot, download, edit and capture-time signals of a photo's metadata.
package enum MetadataSignals {
    static let editors = [
        "gimp", "photoshop", "lightroom", "snapseed", "picsart", "pixelmator", "affinity", "paint.net", "facetune",
        "vsco", "canva", "polarr", "imagemagick", "graphicsmagick", "darktable", "rawtherapee", "luminar", "fotor",
        "meitu", "airbrush", "faceapp", "photoscape", "krita", "acdsee", "capture one", "photopea",
    ]
    static let screenshotTools = [
        "screenshot", "spectacle", "greenshot", "sharex", "snipping tool", "flameshot", "lightshot",
        "shottr", "cleanshot",
    ]
    /// DateTime may trail DateTimeOriginal by the time it takes to save.
    static let saveSlackSeconds: Int64 = 2

    package static func find(
        _ container: ImageContainer, exif: Result<ExifFacts, ExifReader.Failure>?, receipt: Receipt,
        config: ProofcheckConfig
    ) -> [Signal] {
        var signals: [Signal] = []
        var facts = ExifFacts()
        switch exif {
        case .success(let read)?: facts = read
        case .failure(.malformed(let why))?: signals.append(Signal(name: "exif_unreadable", message: "the EXIF block is damaged: \(why)"))
        case nil: break
        }
        let tools = [facts.software, xmpValue(container.xmp, "CreatorTool"), container.texts["Software"]].compactMap { $0 }

        let comments = [facts.userComment, xmpValue(container.xmp, "UserComment"), container.texts["Comment"]].compactMap { $0 }
        if let comment = comments.first(where: { $0.lowercased().contains("screenshot") }) {
            signals.append(Signal(name: "screenshot", message: "the photo's comment says '\(comment.prefix(60))'"))
        } else if let tool = tools.first(where: { name in screenshotTools.contains { name.lowercased().contains($0) } }) {
            signals.append(Signal(name: "screenshot", message: "made by the screenshot tool '\(tool.prefix(60))'"))
        }
        if container.format == .png, facts.make == nil, facts.model == nil {
            signals.append(Signal(name: "png_without_camera", message: "a PNG naming no camera: a screenshot or a download"))
        }
        if container.format == .jpeg, container.exif == nil, let quality = container.lumaQuantisation.flatMap(JPEGQuality.estimate),
            quality < config.lowJPEGQuality
        {
            signals.append(
                Signal(
                    name: "reencoded_without_exif",
                    message: "no EXIF and JPEG quality about \(quality): re-encoded, as messengers do"))
        }
        if let editor = tools.first(where: { name in editors.contains { name.lowercased().contains($0) } }) {
            signals.append(Signal(name: "edited", message: "saved by the editor '\(editor.prefix(60))'"))
        }
        signals += captureSignals(facts, receipt: receipt, config: config)
        return signals
    }

    private static func captureSignals(_ facts: ExifFacts, receipt: Receipt, config: ProofcheckConfig) -> [Signal] {
        var signals: [Signal] = []
        if let changed = facts.dateTime.flatMap(CaptureTime.wallSeconds), let taken = facts.dateTimeOriginal.flatMap(CaptureTime.wallSeconds),
            abs(changed - taken) > saveSlackSeconds
        {
            signals.append(
                Signal(
                    name: "exif_dates_disagree",
                    message: "changed at \(facts.dateTime ?? "") but taken at \(facts.dateTimeOriginal ?? "")"))
        }
        guard let capture = CaptureTime(facts, storeOffsetSeconds: receipt.utcOffsetSeconds) else { return signals }
        let received = receipt.atMs / 1000
        if capture.instant > received + Int64(config.clockSkewMinutes) * 60 {
            signals.append(
                Signal(
                    name: "taken_after_receipt",
                    message: "taken \((capture.instant - received) / 60) minutes after it was received (\(capture.basis))"))
        }
        let local = capture.instant + receipt.utcOffsetSeconds - Int64(receipt.dayStartMinutes) * 60
        let takenDay = Int32(clamping: floorDiv(local, 86_400))
        if let day = receipt.day, takenDay != day {
            let shown = (try? CivilDate.format(takenDay)) ?? "another day"
            let proofDay = (try? CivilDate.format(day)) ?? "its day"
            signals.append(Signal(name: "taken_another_day", message: "taken on \(shown), the proof is for \(proofDay) (\(capture.basis))"))
        }
        return signals
    }

    /// A property's text in XMP, written as an attribute (ns:Name="v") or an element
    /// (<ns:Name>...v...</ns:Name>, tags inside dropped).
    static func xmpValue(_ xmp: String?, _ name: String) -> String? {
        guard let xmp, let start = xmp.firstRange(of: ":" + name) else { return nil }
        let after = xmp[start.upperBound...].prefix(2000)
        if after.hasPrefix("=\"") {
            return after.dropFirst(2).prefix { $0 != "\"" }.description
        }
        guard after.hasPrefix(">"), let end = after.firstRange(of: "</") else { return nil }
        var text = "", inTag = false
        for character in after[after.index(after: after.startIndex)..<end.lowerBound] {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { text.append(character) }
        }
        let trimmed = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
        return trimmed.isEmpty ? nil : trimmed
    }
}
