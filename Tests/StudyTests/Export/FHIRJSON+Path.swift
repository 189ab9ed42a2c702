import Interop

extension FHIRJSON {
    /// The value at a path of keys and indices, such as `"repeat", "timeOfDay", 0`.
    func at(_ path: any FHIRPathElement...) -> FHIRJSON? {
        var value: FHIRJSON? = self
        for element in path {
            if let key = element as? String { value = value?[key] } else if let index = element as? Int { value = value?[index] }
        }
        return value
    }
}

/// A key (`String`) or an index (`Int`) in a path through FHIR JSON.
protocol FHIRPathElement {}
extension String: FHIRPathElement {}
extension Int: FHIRPathElement {}
