/// JSON text for the API's answers.
enum APIJSON {
    /// An RFC 8259 string literal.
    static func quote(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension APIAnswer {
    static func ok(_ json: String) -> APIAnswer { APIAnswer(status: 200, json: json) }
}
