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
    func run(_ transfers: [CurlTransfer]) -> [CURLcode] {
        var results = [CURLcode](repeating: CURLE_FAILED_INIT, count: transfers.count)
        var index: [UnsafeMutableRawPointer: Int] = [:]
        for (i, transfer) in transfers.enumerated() {
            index[transfer.handle] = i
            ics_curl_multi_add_handle(handle, transfer.handle)
        }
        var running: Int32 = 1
        while running > 0 {
            guard ics_curl_multi_perform(handle, &running) == CURLM_OK else { break }
            var left: Int32 = 0
            while let message = ics_curl_multi_info_read(handle, &left) {
                if message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let i = index[easy] {
                    results[i] = message.pointee.data.result
                }
            }
            if running > 0 { ics_curl_multi_poll(handle, nil, 0, 1000, nil) }
        }
        for transfer in transfers { ics_curl_multi_remove_handle(handle, transfer.handle) }
        return results
    }
}
