#include "caveman/compressor.h"

namespace caveman {

SafetyInfo safety_info(SafetyClass c) {
  switch (c) {
    case SafetyClass::kS0: return {true, true, false, true};
    case SafetyClass::kS1: return {true, true, false, true};
    case SafetyClass::kS2: return {true, false, false, true};
    case SafetyClass::kS3: return {true, false, false, false};
    case SafetyClass::kS4: return {true, false, true, false};
    case SafetyClass::kUnknown: break;
  }
  return {false, false, false, false};
}

std::string_view safety_name(SafetyClass c) {
  switch (c) {
    case SafetyClass::kS0: return "S0";
    case SafetyClass::kS1: return "S1";
    case SafetyClass::kS2: return "S2";
    case SafetyClass::kS3: return "S3";
    case SafetyClass::kS4: return "S4";
    case SafetyClass::kUnknown: break;
  }
  return "S?";
}

}  // namespace caveman
