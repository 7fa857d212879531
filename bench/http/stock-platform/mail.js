// No benchmarked route sends mail; the component imports the interface, so it must resolve.
export function send() {
  throw Object.assign(new Error('no mail in the stock benchmark server'), { payload: { tag: 'unavailable', val: 'no mail in the stock benchmark server' } });
}
