internal import Catalog
internal import MediaModel

/// One video as the feed shows it, as a JSON object: the API's shape, rendered here at the edge from the catalog's
/// facts. Paths in the catalog are relative to the library; URLs are under this server's media base (`/media/` by
/// default), so moving the media to a CDN or an object store changes a flag, not the catalog. `RenderedItems` keeps
/// the results, so a page still copies finished bytes.
enum FeedItemRenderer {
    static func render(_ video: FeedVideo, mediaBase: MediaBaseURL) -> [UInt8] {
        var json = JSONWriter(capacity: 1024)
        json.object { json in
            json.key("id")
            json.string(video.id)
            // `playable` while a provisional rendition plays and the ladder is made (issue 64), then `published`.
            json.key("state")
            json.string(video.stage.rawValue)
            json.key("published_at")
            json.timestamp(milliseconds: video.publishedAt)
            // Each absent when the upload gave none (and for posts from before Reel kept them).
            if !video.post.caption.isEmpty {
                json.key("caption")
                json.string(video.post.caption)
            }
            if let title = video.post.title {
                json.key("title")
                json.string(title)
            }
            if let creator = video.post.creator {
                json.key("creator")
                json.string(creator)
            }
            // Absent for a public post (every feed item is one).
            if video.post.visibility != .public {
                json.key("visibility")
                json.string(video.post.visibility.rawValue)
            }
            json.key("duration_s")
            json.milliseconds(asSeconds: video.durationMilliseconds)
            json.key("width")
            json.int(video.width)
            json.key("height")
            json.int(video.height)
            json.key("master_url")
            json.mediaURL(base: mediaBase, video.masterPath)
            json.key("poster_jpeg_url")
            json.mediaURL(base: mediaBase, video.posterJPEGPath)
            json.key("poster_webp_url")
            json.mediaURL(base: mediaBase, video.posterWebPPath)
            if let storyboard = video.storyboard {
                // Absent, not null, for videos published before storyboards: clients test for the key.
                json.key("storyboard")
                json.object { json in
                    json.key("vtt_url")
                    json.mediaURL(base: mediaBase, storyboard.vttPath)
                    json.key("image_url")
                    json.mediaURL(base: mediaBase, storyboard.imagePath)
                    json.key("interval_s")
                    json.int(storyboard.intervalSeconds)
                    json.key("tile_width")
                    json.int(storyboard.tileWidth)
                    json.key("tile_height")
                    json.int(storyboard.tileHeight)
                    json.key("columns")
                    json.int(storyboard.columns)
                    json.key("count")
                    json.int(storyboard.count)
                }
            }
            if let loudness = video.loudness {
                // Absent, not null, for videos without audio and those published before Reel measured it.
                json.key("loudness")
                LoudnessJSON.write(loudness, into: &json)
            }
            json.key("renditions")
            json.array { json in
                for rendition in video.renditions.sorted(by: FeedVideo.Rendition.precedes) {
                    json.object { json in
                        json.key("rung")
                        json.string(rendition.rung)
                        json.key("width")
                        json.int(rendition.width)
                        json.key("height")
                        json.int(rendition.height)
                        json.key("bandwidth")
                        json.int(rendition.bandwidth)
                        json.key("average_bandwidth")
                        json.int(rendition.averageBandwidth)
                        json.key("codecs")
                        json.string(rendition.codecs)
                        json.key("segments")
                        json.int(rendition.segments)
                        // Each absent, not null, for renditions published before Reel recorded it.
                        if let codec = rendition.videoCodec {
                            json.key("video_codec")
                            json.string(codec)
                        }
                        if let crf = rendition.crf {
                            json.key("crf")
                            json.number(crf)
                        }
                        if let target = rendition.targetSSIMY {
                            json.key("target_ssim_y")
                            json.double(target)
                        }
                        if let hint = rendition.prefetch {
                            json.key("prefetch")
                            json.object { json in
                                json.key("init_bytes")
                                json.int(hint.initBytes)
                                json.key("segment_duration_s")
                                json.milliseconds(asSeconds: hint.segmentDurationMilliseconds)
                                json.key("first_segments")
                                json.array { json in
                                    for segment in hint.firstSegments {
                                        json.object { json in
                                            json.key("duration_s")
                                            json.milliseconds(asSeconds: segment.durationMilliseconds)
                                            json.key("bytes")
                                            json.int(segment.bytes)
                                        }
                                    }
                                }
                                json.key("window_bytes")
                                json.int(hint.windowBytes)
                            }
                        }
                    }
                }
            }
        }
        return json.bytes
    }
}
