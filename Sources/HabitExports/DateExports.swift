import CHabitCore
import HabitCore

// Dates as day numbers and ISO text.

@c @implementation
public func hc_date_parse(_ out_day: UnsafeMutablePointer<Int32>?, _ text: UnsafePointer<CChar>?) -> Int32 {
    call { () throws(HabitError) in
        let out = try Convert.out(out_day, "out_day")
        out.pointee = try CivilDate.parseDay(try Convert.string(text, "text"))
    }
}

@c @implementation
public func hc_date_format(_ buf: UnsafeMutablePointer<CChar>?, _ buf_size: Int32, _ day: Int32) -> Int32 {
    call { () throws(HabitError) in
        let buf = try Convert.out(buf, "buf")
        guard buf_size >= HC_DATE_BUFSIZE else { throw .invalid("buf_size \(buf_size) is below HC_DATE_BUFSIZE (11)") }
        let text = Array(try CivilDate.format(day).utf8CString)
        for (index, byte) in text.enumerated() { buf[index] = byte }
    }
}
