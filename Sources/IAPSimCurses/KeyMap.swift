import CNcurses
import IAPSimTUI

/// What ncurses reports, as the UI's keys.
enum KeyMap {
    /// A key code (`KEY_CODE_YES` from `wget_wch`).
    static func special(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BTAB: return .backTab
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_MOUSE: return nil
        case KEY_F0 + 1...KEY_F0 + 63: return .other("F\(code - KEY_F0)")
        case KEY_IC: return .other("Insert")
        case KEY_DC: return .other("Delete")
        default:
            // Another key ncurses knows by a name (KEY_SLEFT, say): named as it names it.
            guard let name = keyname(code) else { return nil }
            return .other(String(cString: name).replacingOccurrences(of: "KEY_", with: ""))
        }
    }

    /// A character (`OK` from `wget_wch`).
    static func character(_ value: UInt32) -> Key? {
        switch value {
        case 3: return .ctrlC
        case 27: return .escape
        case 10, 13: return .enter
        case 9: return .tab
        case 8, 127: return .backspace
        case 0: return .other("Ctrl-Space")
        // The other control characters (Esc, Tab, Enter, Backspace and Ctrl-C matched above).
        case 1..<32: return .other("Ctrl-\(Character(Unicode.Scalar(UInt8(value + 64))))")
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .char(Character(scalar))
        }
    }
}
