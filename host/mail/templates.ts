/**
 * The operator's mail templates (`--mail-templates DIR`): files named `<template>.subject.txt`,
 * `<template>.txt` and `<template>.html`, one template per mail the service sends
 * (src/contract/mail-templates.ts), each part optional (a missing part keeps the built-in one).
 * `{{name}}` stands for one of the template's values. Read and checked once at start: a file that
 * is not a known template part, a value the template does not get, a subject that is not one line,
 * or a link-bearing template whose text loses its link is a ConfigError (exit 2) naming the file.
 * A message is rendered from them when it is queued; values are HTML-escaped in the HTML part.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isMailTemplateName, MAIL_TEMPLATE_PARTS, MAIL_TEMPLATES, type MailTemplateName, type MailTemplatePart } from '../../src/contract/mail-templates.ts';
import { ConfigError } from '../config.ts';

type Parts = Partial<Record<MailTemplatePart, string>>;
export type MailTemplates = Partial<Record<MailTemplateName, Parts>>;

/** A message's parts as the component queued them. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const VALUE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
/** Values a template's text part must keep, or its mail would lose the link it exists for. */
const REQUIRED_IN_TEXT: Partial<Record<MailTemplateName, string>> = { verify: 'link', reset: 'link', email_change: 'link', email_changed: 'link' };
const MAX_BYTES = 256 * 1024;

function partOf(file: string): { name: MailTemplateName; part: MailTemplatePart } | undefined {
  for (const part of MAIL_TEMPLATE_PARTS) {
    if (!file.endsWith(`.${part}`)) continue;
    const name = file.slice(0, -(part.length + 1));
    // `verify.subject.txt` ends with `.txt` too: the longer part wins by coming first.
    if (isMailTemplateName(name)) return { name, part };
  }
  return undefined;
}

function check(path: string, name: MailTemplateName, part: MailTemplatePart, body: string): void {
  const allowed: readonly string[] = MAIL_TEMPLATES[name];
  for (const [, value] of body.matchAll(VALUE)) {
    if (!allowed.includes(value ?? ''))
      throw new ConfigError(`mail template ${path}: {{${value}}} is not a value of this mail (it gets ${allowed.map((v) => `{{${v}}}`).join(', ')})`);
  }
  if (part === 'subject.txt' && (body.trim() === '' || /[\r\n]/.test(body.trim()))) throw new ConfigError(`mail template ${path}: the subject must be one line of text`);
  const required = REQUIRED_IN_TEXT[name];
  if (part === 'txt' && required && !new RegExp(`\\{\\{\\s*${required}\\s*\\}\\}`).test(body))
    throw new ConfigError(`mail template ${path}: the text must contain {{${required}}}, the link this mail exists for`);
}

/** Reads and checks `dir`; ConfigError (naming the file) on the first problem. */
export function loadMailTemplates(dir: string): MailTemplates {
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch (error) {
    throw new ConfigError(`--mail-templates (MAIL_TEMPLATES_DIR): cannot read the directory ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const templates: MailTemplates = {};
  for (const file of files) {
    const path = join(dir, file);
    if (file.startsWith('.')) continue;
    const known = partOf(file);
    const names = Object.keys(MAIL_TEMPLATES).join(', ');
    if (!known) throw new ConfigError(`mail template ${path}: not a template file (expected <name>.subject.txt, <name>.txt or <name>.html, name one of ${names})`);
    if (!statSync(path).isFile() || statSync(path).size > MAX_BYTES) throw new ConfigError(`mail template ${path}: must be a file of at most ${MAX_BYTES} bytes`);
    const body = readFileSync(path, 'utf8');
    if (body.includes('\uFFFD')) throw new ConfigError(`mail template ${path}: must be UTF-8 text`);
    check(path, known.name, known.part, body);
    (templates[known.name] ??= {})[known.part] = known.part === 'subject.txt' ? body.trim() : body;
  }
  return templates;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

function fill(template: string, values: ReadonlyMap<string, string>, html: boolean): string {
  return template.replace(VALUE, (_, name: string) => {
    const value = values.get(name) ?? '';
    return html ? escapeHtml(value) : value;
  });
}

/** The message's parts with the operator's template applied where there is one for it. */
export function renderMail(templates: MailTemplates, template: string, values: ReadonlyArray<readonly [string, string]>, built: MailContent): MailContent {
  const own = isMailTemplateName(template) ? templates[template] : undefined;
  if (!own) return built;
  const byName = new Map(values);
  return {
    subject: own['subject.txt'] === undefined ? built.subject : fill(own['subject.txt'], byName, false),
    text: own.txt === undefined ? built.text : fill(own.txt, byName, false),
    html: own.html === undefined ? built.html : fill(own.html, byName, true),
  };
}
