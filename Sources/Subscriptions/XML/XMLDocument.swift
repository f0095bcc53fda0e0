internal import CLibXML2
import Foundation

/// One element of an XML answer, as plain Swift values: its namespace URI
/// (empty when it has none) and local name, its own text (text and CDATA
/// children, joined) and its child elements. What the code after this
/// folder matches on: never a prefix.
package struct XMLElement: Sendable {
    package let namespace: String
    package let name: String
    package let text: String
    package let children: [XMLElement]
    /// Its attributes by local name (`<c:comp name="VTODO"/>`).
    package let attributes: [String: String]

    package init(namespace: String, name: String, text: String = "", children: [XMLElement] = [],
        attributes: [String: String] = [:]) {
        self.namespace = namespace
        self.name = name
        self.text = text
        self.children = children
        self.attributes = attributes
    }

    /// Whether it is `name` in `namespace`.
    package func `is`(_ namespace: String, _ name: String) -> Bool {
        self.name == name && self.namespace == namespace
    }

    /// The first child that is `name` in `namespace`.
    package func child(_ namespace: String, _ name: String) -> XMLElement? {
        children.first { $0.is(namespace, name) }
    }

    /// Every child that is `name` in `namespace`.
    package func all(_ namespace: String, _ name: String) -> [XMLElement] {
        children.filter { $0.is(namespace, name) }
    }
}

/// An XML answer read by libxml2 into `XMLElement`s. The `xmlDoc` has one
/// owner, this value, and is freed with it; the tree is copied into Swift
/// values at once and nothing of libxml2 leaves this folder.
///
/// Parse options are named once (`options`): no network (`XML_PARSE_NONET`);
/// not `XML_PARSE_NOENT` (no entity substitution), not `XML_PARSE_DTDLOAD`,
/// not `XML_PARSE_RECOVER`, not `XML_PARSE_HUGE`. A document with a DOCTYPE
/// is refused before and after parsing: a multistatus never needs one, and
/// it is how XXE and billion-laughs bodies come.
///
/// libxml2 never prints: while a body is parsed, its error handlers on this
/// thread (thread-local in libxml2) are ours, and put back after. Without
/// them some errors reached stderr despite `XML_PARSE_NOERROR`, the
/// server's bytes quoted under them. The first error is told in words.
package struct XMLDocument: ~Copyable {
    private let document: xmlDocPtr

    /// Why a body could not be read as XML.
    package struct Refusal: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }
    }

    /// The options every answer is parsed with (by `xmlCtxtReadMemory`,
    /// through a parser context this initializer owns and frees).
    static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

    /// Parses `bytes`. C0 control characters other than tab, line feed and
    /// carriage return (Zimbra and DavMail send them in calendar data; XML
    /// 1.0 forbids them) are read as blanks.
    package init(parsing bytes: [UInt8]) throws(Refusal) {
        if XMLDocument.hasDoctype(bytes) {
            throw Refusal(reason: "the XML has a DOCTYPE (refused: entities and DTDs are never read)")
        }
        guard bytes.count < Int(Int32.max) else { throw Refusal(reason: "the XML is too large") }
        var cleaned = bytes
        for i in cleaned.indices where cleaned[i] < 0x20 && cleaned[i] != 0x09 && cleaned[i] != 0x0A
            && cleaned[i] != 0x0D {
            cleaned[i] = 0x20
        }
        xmlInitParser()
        guard let context = xmlNewParserCtxt() else {
            throw Refusal(reason: "the XML cannot be read: libxml2 could not start a parser (memory ran out)")
        }
        defer { xmlFreeParserCtxt(context) }  // the document keeps the context's dictionary by a reference of its own
        var said = Diagnostics()
        let parsed = withUnsafeMutablePointer(to: &said) { said in
            XMLDocument.silenced(into: said) {
                cleaned.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) {
                        xmlCtxtReadMemory(context, $0.baseAddress, Int32($0.count), "answer.xml", nil,
                            XMLDocument.options)
                    }
                }
            }
        }
        // libxml2 2.9 gives back a document after some errors that stop it
        // (an element's text over its limit): what it read is not the whole
        // body, so it is refused as well.
        let stopped = context.pointee.disableSAX != 0 || said.stopping != nil
        guard let parsed, !stopped else {
            if let parsed { xmlFreeDoc(parsed) }
            let reason = (said.stopping ?? said.first).map(XMLDocument.words) ?? "not well formed"
            throw Refusal(reason: "the XML cannot be read: \(reason)")
        }
        if xmlGetIntSubset(parsed) != nil || parsed.pointee.extSubset != nil {
            xmlFreeDoc(parsed)
            throw Refusal(reason: "the XML has a DOCTYPE (refused: entities and DTDs are never read)")
        }
        document = parsed
    }

    deinit { xmlFreeDoc(document) }

    /// An error libxml2 reported, copied at once (libxml2 reuses its own).
    private struct Said {
        let code: Int32
        let line: Int32
        let message: String
    }

    /// What libxml2 reported while one body was parsed: the first error,
    /// and the first that stopped the parse. Warnings are not kept.
    private struct Diagnostics {
        var first: Said?
        var stopping: Said?

        mutating func note(_ error: xmlError) {
            guard error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let said = Said(code: error.code, line: error.line,
                message: error.message.map { String(cString: $0) } ?? "")
            if first == nil { first = said }
            let stops = error.level == XML_ERR_FATAL || error.code == Int32(XML_ERR_NO_MEMORY.rawValue)
                || error.code == Int32(XML_ERR_INTERNAL_ERROR.rawValue)
            if stops && stopping == nil { stopping = said }
        }
    }

    /// Runs `body` with libxml2's error handlers on this thread taken over:
    /// the structured one notes each error into `diagnostics`, the generic
    /// one says nothing; the handlers before are put back after.
    private static func silenced<T>(into diagnostics: UnsafeMutablePointer<Diagnostics>, _ body: () -> T) -> T {
        let structured = __xmlStructuredError().pointee, structuredContext = __xmlStructuredErrorContext().pointee
        let generic = __xmlGenericError().pointee, genericContext = __xmlGenericErrorContext().pointee
        let note: xmlStructuredErrorFunc = { context, error in
            guard let context, let error else { return }
            context.assumingMemoryBound(to: Diagnostics.self).pointee.note(error.pointee)
        }
        xmlSetStructuredErrorFunc(UnsafeMutableRawPointer(diagnostics), note)
        xmlSetGenericErrorFunc(nil, ics_xml_generic_error_ignored_function())
        defer {
            xmlSetStructuredErrorFunc(structuredContext, structured)
            xmlSetGenericErrorFunc(genericContext, generic)
        }
        return body()
    }

    /// An error in words: libxml2's limits said as such, else its own
    /// message (one line, at most 160 characters: it may name an element,
    /// never quotes the text), with the line it was found on.
    private static func words(_ said: Said) -> String {
        let line = said.line > 0 ? " (line \(said.line))" : ""
        if said.message.contains("huge text node") {
            return "an element's text is over libxml2's 10 MB limit\(line)"
        }
        if said.message.contains("Excessive depth") {
            return "its elements are nested deeper than libxml2's limit of 256\(line)"
        }
        if said.code == Int32(XML_ERR_NAME_TOO_LONG.rawValue) || said.message.contains("Huge input lookup")
            || said.message.contains("too long") {
            return "a name or value in it is over libxml2's size limit\(line)"
        }
        if said.code == Int32(XML_ERR_NO_MEMORY.rawValue) { return "libxml2 ran out of memory\(line)" }
        let oneLine = String(said.message.unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0)
        }).trimmingCharacters(in: .whitespaces)
        let message = oneLine.count > 160 ? oneLine.prefix(160) + "…" : Substring(oneLine)
        return (message.isEmpty ? "not well formed" : String(message)) + line
    }

    /// The root element, copied into Swift values; nil when there is none.
    package var root: XMLElement? {
        guard let node = xmlDocGetRootElement(document) else { return nil }
        return XMLDocument.element(node)
    }

    private static func element(_ node: xmlNodePtr) -> XMLElement {
        var children: [XMLElement] = []
        var text: [UInt8] = []
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE: children.append(element(current))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content {
                    text.append(contentsOf: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
                }
            default: break
            }
            child = current.pointee.next
        }
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            var value: [UInt8] = []
            var part = current.pointee.children
            while let text = part {
                if let content = text.pointee.content {
                    value.append(contentsOf: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
                }
                part = text.pointee.next
            }
            if let name = current.pointee.name {
                attributes[String(cString: name)] = String(decoding: value, as: UTF8.self)
            }
            attribute = current.pointee.next
        }
        let name = node.pointee.name.map { String(cString: $0) } ?? ""
        let namespace = node.pointee.ns.flatMap { $0.pointee.href.map { String(cString: $0) } } ?? ""
        return XMLElement(namespace: namespace, name: name, text: String(decoding: text, as: UTF8.self),
            children: children, attributes: attributes)
    }

    /// Whether `<!DOCTYPE` stands anywhere in the bytes (UTF-8, or a
    /// UTF-16 body with its zero bytes left out).
    static func hasDoctype(_ bytes: [UInt8]) -> Bool {
        let word = Array("<!DOCTYPE".utf8)
        let text = bytes.prefix(4).contains(0) ? bytes.filter { $0 != 0 } : bytes
        guard text.count >= word.count else { return false }
        var i = 0
        while i <= text.count - word.count {
            if text[i] == 0x3C && text[(i + 1)..<(i + word.count)].elementsEqual(word.dropFirst()) { return true }
            i += 1
        }
        return false
    }
}
