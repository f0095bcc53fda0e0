import CCurl
import Foundation

/// Runs several transfers at once on this thread with libcurl's multi
/// interface, so that the wait is the slowest one's, not the sum; the
/// multi handle is owned here. Each transfer's own limits end it.
final class CurlMulti {
    private let handle: UnsafeMutableRawPointer

    init?() {
        guard CurlTransfer.unavailable == nil, let handle = ics_curl_multi_init() else { return nil }
        self.handle = handle
    }

    deinit {
        ics_curl_multi_cleanup(handle)
    }

    /// Runs every transfer to its end: the result code of each, in order.
    /// At most `atOnce` are in flight: as one ends the next is added, and
    /// may take over its connection (the multi handle keeps them).
    func run(_ transfers: [CurlTransfer], atOnce: Int = .max) -> [CURLcode] {
        var results = [CURLcode](repeating: CURLE_FAILED_INIT, count: transfers.count)
        var index: [UnsafeMutableRawPointer: Int] = [:]
        var next = 0
        func addNext() {
            guard next < transfers.count else { return }
            index[transfers[next].handle] = next
            ics_curl_multi_add_handle(handle, transfers[next].handle)
            next += 1
        }
        while next < min(atOnce, transfers.count) { addNext() }
        var running: Int32 = 1
        while running > 0 || next < transfers.count {
            guard ics_curl_multi_perform(handle, &running) == CURLM_OK else { break }
            var left: Int32 = 0
            var ended = 0
            while let message = ics_curl_multi_info_read(handle, &left) {
                if message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let i = index[easy] {
                    results[i] = message.pointee.data.result
                    ics_curl_multi_remove_handle(handle, easy)
                    index[easy] = nil
                    ended += 1
                }
            }
            for _ in 0..<ended { addNext() }
            if ended > 0 { continue }  // perform at once: the transfers just added start
            if running > 0 { ics_curl_multi_poll(handle, nil, 0, 1000, nil) }
        }
        for easy in index.keys { ics_curl_multi_remove_handle(handle, easy) }
        return results
    }
}
