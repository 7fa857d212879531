// The probe entries import src/http, which imports the WIT bindings; the root tsconfig does not
// include src/, so point it at the generated declarations.
/// <reference path="../../src/platform/bindings/hosted/hosted.d.ts" />
