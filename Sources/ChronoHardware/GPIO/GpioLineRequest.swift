import CGPIOD

/// Where a line request ended up on the system, for reports such as `chronoception board check`.
public struct ResolvedGpioLine: Sendable, Equatable, CustomStringConvertible {
    public var chipPath: String
    public var chipLabel: String
    public var lineOffset: UInt32
    /// The line's device-tree name, empty when it has none.
    public var lineName: String
    /// The debounce period the kernel applies (0 with libgpiod API v1 or when none was asked for).
    public var kernelDebounceMicroseconds: UInt32

    public var description: String {
        let name = lineName.isEmpty ? "" : " \"\(lineName)\""
        let label = chipLabel.isEmpty ? "" : " (\(chipLabel))"
        return "\(chipPath)\(label) line \(lineOffset)\(name)"
    }

    init(_ resolved: chrono_gpiod_resolved) {
        var resolved = resolved
        chipPath = GpioError.string(&resolved.chip_path)
        chipLabel = GpioError.string(&resolved.chip_label)
        lineName = GpioError.string(&resolved.line_name)
        lineOffset = resolved.line_offset
        kernelDebounceMicroseconds = resolved.kernel_debounce_us
    }
}

/// The libgpiod API the drivers were built against.
public enum LibgpiodAPI {
    /// 1 (libgpiod 1.x) or 2 (libgpiod 2.x), chosen at build time from the installed header.
    public static var version: Int { Int(chrono_gpiod_api_version()) }
}

/// Calls `body` with a C line spec whose strings live for the duration of the call.
func withLineSpec<Result>(chip: String, line: GpioLineReference, activeLow: Bool, bias: GpioBias,
                          debounceMicroseconds: UInt32, consumer: String,
                          _ body: (UnsafePointer<chrono_gpiod_line_spec>) -> Result) -> Result {
    chip.withCString { chipPointer in
        consumer.withCString { consumerPointer in
            let lineName: String
            let offset: UInt32
            switch line {
            case .offset(let value): lineName = ""; offset = value
            case .name(let name): lineName = name; offset = 0
            }
            return lineName.withCString { namePointer in
                var spec = chrono_gpiod_line_spec()
                spec.chip = chipPointer
                spec.line_name = namePointer
                spec.line_offset = offset
                spec.active_low = activeLow
                spec.bias = bias.shimValue
                spec.debounce_us = debounceMicroseconds
                spec.consumer = consumerPointer
                return body(&spec)
            }
        }
    }
}

extension GpioBias {
    var shimValue: chrono_gpiod_bias {
        switch self {
        case .asIs: return CHRONO_GPIOD_BIAS_AS_IS
        case .disabled: return CHRONO_GPIOD_BIAS_DISABLED
        case .pullUp: return CHRONO_GPIOD_BIAS_PULL_UP
        case .pullDown: return CHRONO_GPIOD_BIAS_PULL_DOWN
        }
    }
}

/// A shim handle (`chrono_gpiod_input *` / `chrono_gpiod_output *`). Only ever used under its owner's
/// mutex, which is what makes sharing it between threads sound.
struct ShimHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
