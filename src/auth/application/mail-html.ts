/**
 * The HTML part of the service's mails, in the product's design (its indigo accent, rounded card,
 * system fonts) with the styles inline, as mail clients require, and no images: the service's
 * name is text, each link is a button and its address written out below it, so the mail reads
 * the same with images and remote content blocked. Dark-mode clients may invert it; the colours
 * keep their contrast either way.
 */
export type MailBlock = { text: string } | { label: string; link: string; button: string };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

const FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif";

function block(item: MailBlock): string {
  if ('text' in item) return `<p style="margin:0 0 16px;font-size:15px;line-height:1.55;color:#0f172a">${escapeHtml(item.text)}</p>`;
  const href = escapeHtml(item.link);
  return [
    `<p style="margin:0 0 8px;font-size:15px;line-height:1.55;color:#0f172a">${escapeHtml(item.label)}:</p>`,
    `<p style="margin:0 0 8px"><a href="${href}" style="display:inline-block;padding:10px 18px;border-radius:10px;background:#4f46e5;color:#ffffff;font-weight:600;text-decoration:none">${escapeHtml(item.button)}</a></p>`,
    `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#5b6478;word-break:break-all"><a href="${href}" style="color:#4338ca">${href}</a></p>`,
  ].join('');
}

export function mailHtml(appName: string, subject: string, blocks: readonly MailBlock[]): string {
  const name = escapeHtml(appName);
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    `<meta name="color-scheme" content="light"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:24px 12px;background:#f7f8fb;${FONT}">`,
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto">',
    `<tr><td style="padding:0 4px 12px;font-size:18px;font-weight:700;color:#4f46e5">${name}</td></tr>`,
    '<tr><td style="padding:24px;background:#ffffff;border:1px solid #dfe3ec;border-radius:16px">',
    `<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3;color:#0f172a">${escapeHtml(subject)}</h1>`,
    ...blocks.map(block),
    '</td></tr>',
    `<tr><td style="padding:12px 4px;font-size:12px;color:#5b6478">Sent by ${name} because of a request for this address.</td></tr>`,
    '</table></body></html>',
  ].join('');
}
