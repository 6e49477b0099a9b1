internal import Transcode

/// One line of `reel upload --json`: what happened, as a flat JSON object with an `event` key.
package enum UploadEvent: Sendable, Equatable, Encodable {
    case plan(UploadPlan)
    case compressing(percent: Double)
    case compressed(path: String, bytes: Int64)
    case created(uploadURL: String)
    case resumed(uploadURL: String, offset: Int64)
    case progress(bytes: Int64, total: Int64, bytesPerSecond: Double?, etaSeconds: Double?)
    case uploaded(jobURL: String)
    case job(state: String, progressPercent: Int?)
    case done(state: String, reason: String?, mediaID: String?, masterURL: String?)

    private enum Key: String, CodingKey {
        case event, file, kind, action, quality, bytes, filename, filetype, percent, path, total, offset, state, reason
        case uploadURL = "upload_url"
        case bytesPerSecond = "bytes_per_second"
        case etaSeconds = "eta_seconds"
        case jobURL = "job_url"
        case progressPercent = "progress_percent"
        case mediaID = "media_id"
        case masterURL = "master_url"
    }

    package func encode(to encoder: any Encoder) throws {
        var json = encoder.container(keyedBy: Key.self)
        switch self {
        case let .plan(plan):
            try json.encode("plan", forKey: .event)
            try json.encode(plan.path, forKey: .file)
            try json.encode(plan.kind.rawValue, forKey: .kind)
            switch plan.action {
            case .uploadAsIs: try json.encode("upload_as_is", forKey: .action)
            case let .compress(quality):
                try json.encode("compress", forKey: .action)
                try json.encode(quality.rawValue, forKey: .quality)
            }
            try json.encode(plan.sourceBytes, forKey: .bytes)
            try json.encode(plan.filename, forKey: .filename)
            try json.encode(plan.filetype, forKey: .filetype)
        case let .compressing(percent):
            try json.encode("compressing", forKey: .event)
            try json.encode((percent * 10).rounded() / 10, forKey: .percent)
        case let .compressed(path, bytes):
            try json.encode("compressed", forKey: .event)
            try json.encode(path, forKey: .path)
            try json.encode(bytes, forKey: .bytes)
        case let .created(url):
            try json.encode("created", forKey: .event)
            try json.encode(url, forKey: .uploadURL)
        case let .resumed(url, offset):
            try json.encode("resumed", forKey: .event)
            try json.encode(url, forKey: .uploadURL)
            try json.encode(offset, forKey: .offset)
        case let .progress(bytes, total, rate, eta):
            try json.encode("progress", forKey: .event)
            try json.encode(bytes, forKey: .bytes)
            try json.encode(total, forKey: .total)
            try json.encode(rate.map { $0.rounded() }, forKey: .bytesPerSecond)
            try json.encode(eta.map { ($0 * 10).rounded() / 10 }, forKey: .etaSeconds)
        case let .uploaded(jobURL):
            try json.encode("uploaded", forKey: .event)
            try json.encode(jobURL, forKey: .jobURL)
        case let .job(state, percent):
            try json.encode("job", forKey: .event)
            try json.encode(state, forKey: .state)
            try json.encode(percent, forKey: .progressPercent)
        case let .done(state, reason, mediaID, masterURL):
            try json.encode("done", forKey: .event)
            try json.encode(state, forKey: .state)
            try json.encode(reason, forKey: .reason)
            try json.encode(mediaID, forKey: .mediaID)
            try json.encode(masterURL, forKey: .masterURL)
        }
    }
}
