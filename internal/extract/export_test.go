package extract

// RealScreensDir gives the external tests (package extract_test) the
// folder of the real development set that the internal ones use.
var RealScreensDir = realScreensDir
