import FuzzSupport

runFuzzer(fuzzProfile)
