import Foundation

extension AnswerFormat: Codable {
    private enum TypeKey: String, CodingKey { case type }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(AnswerFormatType.self, forKey: .type)
        switch type {
        case .boolean: self = .boolean(try BooleanFormat(from: decoder))
        case .textChoice: self = .textChoice(try TextChoiceFormat(from: decoder))
        case .imageChoice: self = .imageChoice(try ImageChoiceFormat(from: decoder))
        case .valuePicker: self = .valuePicker(try ValuePickerFormat(from: decoder))
        case .multipleValuePicker: self = .multipleValuePicker(try MultipleValuePickerFormat(from: decoder))
        case .textScale: self = .textScale(try TextScaleFormat(from: decoder))
        case .scale: self = .scale(try ScaleFormat(from: decoder))
        case .continuousScale: self = .continuousScale(try ContinuousScaleFormat(from: decoder))
        case .numeric: self = .numeric(try NumericFormat(from: decoder))
        case .height: self = .height(try HeightFormat(from: decoder))
        case .weight: self = .weight(try WeightFormat(from: decoder))
        case .age: self = .age(try AgeFormat(from: decoder))
        case .date: self = .date(try DateFormat(from: decoder))
        case .dateTime: self = .dateTime(try DateFormat(from: decoder))
        case .timeOfDay: self = .timeOfDay(try TimeOfDayFormat(from: decoder))
        case .timeInterval: self = .timeInterval(try TimeIntervalFormat(from: decoder))
        case .text: self = .text(try TextFormat(from: decoder))
        case .email: self = .email(try EmailFormat(from: decoder))
        case .location: self = .location(try LocationFormat(from: decoder))
        case .sesLadder: self = .sesLadder(try SESLadderFormat(from: decoder))
        case .file: self = .file(try FileFormat(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .boolean(let f): try f.encode(to: encoder)
        case .textChoice(let f): try f.encode(to: encoder)
        case .imageChoice(let f): try f.encode(to: encoder)
        case .valuePicker(let f): try f.encode(to: encoder)
        case .multipleValuePicker(let f): try f.encode(to: encoder)
        case .textScale(let f): try f.encode(to: encoder)
        case .scale(let f): try f.encode(to: encoder)
        case .continuousScale(let f): try f.encode(to: encoder)
        case .numeric(let f): try f.encode(to: encoder)
        case .height(let f): try f.encode(to: encoder)
        case .weight(let f): try f.encode(to: encoder)
        case .age(let f): try f.encode(to: encoder)
        case .date(let f): try f.encode(to: encoder, daysOnly: true)
        case .dateTime(let f): try f.encode(to: encoder, daysOnly: false)
        case .timeOfDay(let f): try f.encode(to: encoder)
        case .timeInterval(let f): try f.encode(to: encoder)
        case .text(let f): try f.encode(to: encoder)
        case .email(let f): try f.encode(to: encoder)
        case .location(let f): try f.encode(to: encoder)
        case .sesLadder(let f): try f.encode(to: encoder)
        case .file(let f): try f.encode(to: encoder)
        }
    }
}
