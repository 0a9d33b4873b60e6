import FuzzSupport

withoutLeakChecks { _ = sampleCatalogs }
runFuzzer(fuzzScenario)
