// The public API of the space-bookings area: all another area may import from it (test/app/module-structure.test.ts).
// No other area uses it yet. Its manifest is module.ts; every other file of the folder is private to the area.
export {};
