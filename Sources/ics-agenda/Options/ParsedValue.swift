import ArgumentParser

/// An option's value read once, when the command line is parsed
/// (`@Option(transform:)`), or why it cannot be read.
///
/// The transform does not throw: ArgumentParser would word the error its
/// own way ("The value '(' is invalid for '--grep <regex>'"), and at parse
/// time, before checks that come first. The command's `validate()` calls
/// `check()` instead, so that a bad value is told in its own words, in the
/// order of the other checks, with status 64.
struct ParsedValue<Value: Sendable>: Sendable {
    private let result: Result<Value, ValidationError>

    /// `read()`, or the error it throws worded by `message`.
    init(_ read: () throws -> Value, else message: (Error) -> String) {
        do {
            result = .success(try read())
        } catch {
            result = .failure(ValidationError(message(error)))
        }
    }

    /// The value; nil when it could not be read (`check()` has then ended the run).
    var value: Value? { try? result.get() }

    /// Throws the worded error of a value that could not be read.
    func check() throws { _ = try result.get() }
}
