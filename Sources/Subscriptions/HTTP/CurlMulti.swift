internal import CCurl
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

    /// Runs every transfer to its end, `atOnce` at a time on one multi
    /// handle: each one's failure in words (`TransferFailure.reason`), in
    /// order, nil for one that was answered (whatever its HTTP status).
    /// libcurl's codes stay in this folder.
    static func failures(running transfers: [CurlTransfer], atOnce: Int = .max) -> [String?] {
        let codes = CurlMulti().map { $0.run(transfers, atOnce: atOnce) } ?? transfers.map { _ in CURLE_FAILED_INIT }
        return zip(transfers, codes).map { TransferFailure.reason($1, transfer: $0) }
    }

    /// Runs every transfer to its end: the result code of each, in order.
    /// At most `atOnce` are in flight: as one ends the next is added, and
    /// may take over its connection (the multi handle keeps them).
    private func run(_ transfers: [CurlTransfer], atOnce: Int) -> [CURLcode] {
        var results = [CURLcode](repeating: CURLE_FAILED_INIT, count: transfers.count)
        // The transfers added and not yet done, by handle: the loop's own
        // count (libcurl's `running` does not know of those just added).
        var inFlight: [UnsafeMutableRawPointer: Int] = [:]
        var next = 0
        while next < transfers.count || !inFlight.isEmpty {
            while next < transfers.count && inFlight.count < atOnce {
                // One that cannot be added stays CURLE_FAILED_INIT, and is not waited for.
                if ics_curl_multi_add_handle(handle, transfers[next].handle) == CURLM_OK {
                    inFlight[transfers[next].handle] = next
                }
                next += 1
            }
            guard !inFlight.isEmpty else { continue }
            var running: Int32 = 0
            guard ics_curl_multi_perform(handle, &running) == CURLM_OK else { break }
            var left: Int32 = 0
            var ended = false
            while let message = ics_curl_multi_info_read(handle, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let i = inFlight.removeValue(forKey: easy) else { continue }
                results[i] = message.pointee.data.result
                ics_curl_multi_remove_handle(handle, easy)
                ended = true
            }
            // One ended: the next is added and started at once; else wait for the network.
            if !ended && running > 0 { ics_curl_multi_poll(handle, nil, 0, 1000, nil) }
            // None running and none ended: nothing is left to wait for (never seen; no loop on it).
            if !ended && running == 0 { break }
        }
        for easy in inFlight.keys { ics_curl_multi_remove_handle(handle, easy) }
        return results
    }
}
