/// The words of a row in the locale's language: the time column, the title's
/// marks and the header of undated reminders. One table for every language
/// shipped; any other language is written in English. `{time}`, `{date}`,
/// `{n}` and `{count}` are filled in.
package struct RowWords: Sendable, Equatable {
    package let allDay: String
    /// `until {time}`: the last day of an occurrence spanning days.
    package let until: String
    /// `due {time}`, and `due` alone for a reminder due on a date.
    let dueAt: String
    package let due: String
    package let overdue: String
    /// The time column, and the section header, of a reminder without dates.
    package let noDate: String
    let noDateHeader: String
    let noTitle: String
    /// `day {n} of {count}`, shown in parentheses.
    package let dayOf: String
    package let cancelled: String
    /// An occurrence I declined, listed with `--show-declined`.
    package let declined: String
    /// `(due {date})`, after an overdue reminder's title.
    package let overdueNote: String

    /// The words for a language code (`de`, `pt`, `zh`); English for any
    /// language not in the table.
    package static func forLanguage(_ code: String?) -> RowWords {
        table[code?.lowercased() ?? "en"] ?? english
    }

    package func until(_ time: String) -> String { RowWords.fill(until, ["time": time]) }
    package func due(_ time: String) -> String { RowWords.fill(dueAt, ["time": time]) }
    package func overdueNote(_ date: String) -> String { RowWords.fill(overdueNote, ["date": date]) }
    package func dayOf(_ n: Int, _ count: Int) -> String {
        "(" + RowWords.fill(dayOf, ["n": String(n), "count": String(count)]) + ")"
    }

    /// The template with each `{name}` of `values` filled in (others kept
    /// as written). A walk over its characters: Foundation's
    /// `replacingOccurrences` took a fifth of the time of an agenda of
    /// 100,000 multi-day rows, each asking for its `day 2 of 3`.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        var out = ""
        out.reserveCapacity(template.utf8.count + 16)
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"),
                let value = values[String(rest[rest.index(after: open)..<close])] else {
                out.append("{")
                rest = rest[rest.index(after: open)...]
                continue
            }
            out += value
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    package static let english = RowWords(
        allDay: "all day", until: "until {time}", dueAt: "due {time}", due: "due", overdue: "overdue",
            noDate: "no date",
        noDateHeader: "No date", noTitle: "(no title)", dayOf: "day {n} of {count}", cancelled: "cancelled",
            declined: "declined",
        overdueNote: "(due {date})")

    static let table: [String: RowWords] = [
        "en": english,
        "de": RowWords(
            allDay: "ganztägig", until: "bis {time}", dueAt: "fällig {time}", due: "fällig", overdue: "überfällig",
            noDate: "ohne Datum", noDateHeader: "Ohne Datum", noTitle: "(ohne Titel)", dayOf: "Tag {n} von {count}",
            cancelled: "abgesagt", declined: "abgelehnt", overdueNote: "(fällig {date})"),
        "fr": RowWords(
            allDay: "toute la journée", until: "jusqu’à {time}", dueAt: "échéance {time}", due: "échéance",
            overdue: "en retard", noDate: "sans date", noDateHeader: "Sans date", noTitle: "(sans titre)",
            dayOf: "jour {n} sur {count}", cancelled: "annulé", declined: "refusé", overdueNote: "(échéance {date})"),
        "es": RowWords(
            allDay: "todo el día", until: "hasta las {time}", dueAt: "vence {time}", due: "vence", overdue: "vencido",
            noDate: "sin fecha", noDateHeader: "Sin fecha", noTitle: "(sin título)", dayOf: "día {n} de {count}",
            cancelled: "cancelado", declined: "rechazado", overdueNote: "(vencía el {date})"),
        "it": RowWords(
            allDay: "tutto il giorno", until: "fino alle {time}", dueAt: "scade {time}", due: "scade",
                overdue: "scaduto",
            noDate: "senza data", noDateHeader: "Senza data", noTitle: "(senza titolo)", dayOf: "giorno {n} di {count}",
            cancelled: "annullato", declined: "rifiutato", overdueNote: "(scadeva {date})"),
        "nl": RowWords(
            allDay: "hele dag", until: "tot {time}", dueAt: "uiterlijk {time}", due: "uiterlijk", overdue: "te laat",
            noDate: "geen datum", noDateHeader: "Geen datum", noTitle: "(geen titel)", dayOf: "dag {n} van {count}",
            cancelled: "geannuleerd", declined: "afgewezen", overdueNote: "(uiterlijk {date})"),
        "pt": RowWords(
            allDay: "dia inteiro", until: "até {time}", dueAt: "vence {time}", due: "vence", overdue: "atrasado",
            noDate: "sem data", noDateHeader: "Sem data", noTitle: "(sem título)", dayOf: "dia {n} de {count}",
            cancelled: "cancelado", declined: "recusado", overdueNote: "(venceu {date})"),
        "ja": RowWords(
            allDay: "終日", until: "{time}まで", dueAt: "期限 {time}", due: "期限", overdue: "期限切れ", noDate: "日付なし",
            noDateHeader: "日付なし", noTitle: "(タイトルなし)", dayOf: "{count}日中{n}日目", cancelled: "キャンセル済み", declined: "辞退",
            overdueNote: "(期限 {date})"),
        "zh": RowWords(
            allDay: "全天", until: "至 {time}", dueAt: "截止 {time}", due: "截止", overdue: "已逾期", noDate: "无日期",
            noDateHeader: "无日期", noTitle: "(无标题)", dayOf: "第 {n} 天，共 {count} 天", cancelled: "已取消", declined: "已拒绝",
            overdueNote: "(截止 {date})"),
        "ru": RowWords(
            allDay: "весь день", until: "до {time}", dueAt: "срок {time}", due: "срок", overdue: "просрочено",
            noDate: "без даты", noDateHeader: "Без даты", noTitle: "(без названия)", dayOf: "день {n} из {count}",
            cancelled: "отменено", declined: "отклонено", overdueNote: "(срок {date})"),
        "ar": RowWords(
            allDay: "طوال اليوم", until: "حتى {time}", dueAt: "الاستحقاق {time}", due: "مستحق", overdue: "متأخر",
            noDate: "بلا تاريخ", noDateHeader: "بلا تاريخ", noTitle: "(بلا عنوان)", dayOf: "اليوم {n} من {count}",
            cancelled: "ملغى", declined: "مرفوض", overdueNote: "(الاستحقاق {date})"),
        "fa": RowWords(
            allDay: "تمام روز", until: "تا {time}", dueAt: "سررسید {time}", due: "سررسید", overdue: "عقب‌افتاده",
            noDate: "بدون تاریخ", noDateHeader: "بدون تاریخ", noTitle: "(بدون عنوان)", dayOf: "روز {n} از {count}",
            cancelled: "لغو شده", declined: "رد شده", overdueNote: "(سررسید {date})"),
        "th": RowWords(
            allDay: "ทั้งวัน", until: "ถึง {time}", dueAt: "ครบกำหนด {time}", due: "ครบกำหนด", overdue: "เลยกำหนด",
            noDate: "ไม่มีวันที่", noDateHeader: "ไม่มีวันที่", noTitle: "(ไม่มีชื่อ)", dayOf: "วันที่ {n} จาก {count}",
            cancelled: "ยกเลิกแล้ว", declined: "ปฏิเสธแล้ว", overdueNote: "(ครบกำหนด {date})"),
        "sv": RowWords(
            allDay: "heldag", until: "till {time}", dueAt: "förfaller {time}", due: "förfaller", overdue: "försenad",
            noDate: "inget datum", noDateHeader: "Inget datum", noTitle: "(ingen titel)", dayOf: "dag {n} av {count}",
            cancelled: "inställd", declined: "avböjd", overdueNote: "(förföll {date})"),
        "pl": RowWords(
            allDay: "cały dzień", until: "do {time}", dueAt: "termin {time}", due: "termin", overdue: "zaległe",
            noDate: "bez daty", noDateHeader: "Bez daty", noTitle: "(bez tytułu)", dayOf: "dzień {n} z {count}",
            cancelled: "odwołane", declined: "odrzucone", overdueNote: "(termin {date})"),
    ]
}
