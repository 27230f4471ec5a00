/**
 * What the screens suite measures in the page (runs inside the browser through page.evaluate; self-contained).
 *
 * - overflow: the document scrolls sideways, or a visible element sticks out past the viewport's right edge
 *   (outside any sideways-scrolling frame);
 * - clipped: an element showing text whose content is wider than its box (scrollWidth > clientWidth) and that does
 *   not end in an ellipsis with the full text in a title (on it or an ancestor);
 * - hiddenControls: a button, link or field inside a sideways-scrolling frame but outside its visible part
 *   (actions that need sideways scrolling to reach);
 * - texts: the visible texts and the names/placeholders of visible elements (for the untranslated-text check),
 *   except inside translate="no" (stored data such as a logged server message);
 * - cardLabels: in a list shown as cards (phones), a cell whose label (`td[data-label]::before`) is set in another
 *   font or alignment than the other labels of its table (a monospace or end-aligned cell must not change its label).
 */
export interface AuditResult {
  overflow: string[];
  clipped: string[];
  hiddenControls: string[];
  texts: string[];
  cardLabels: string[];
}

export function auditPage(): AuditResult {
  const result: AuditResult = { overflow: [], clipped: [], hiddenControls: [], texts: [], cardLabels: [] };
  const width = window.innerWidth;
  const describe = (el: Element): string => {
    const tag = el.tagName.toLowerCase();
    const id = el.id ? `#${el.id}` : '';
    const testId = el.getAttribute('data-testid');
    const scope = el.getAttribute('data-scope');
    const part = el.getAttribute('data-part');
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
    return `${tag}${id}${testId ? `[data-testid=${testId}]` : ''}${scope ? `[${scope}/${part ?? ''}]` : ''} "${text}"`;
  };
  const hiddenCache = new Map<Element, boolean>();
  // hidden: not rendered, invisible, or inside a visually hidden (sr-only) box
  const isHidden = (el: Element): boolean => {
    const cached = hiddenCache.get(el);
    if (cached !== undefined) return cached;
    let hidden = false;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || style.opacity === '0') hidden = true;
    else if ((style.clip !== 'auto' && style.clip !== '') || (style.clipPath !== 'none' && style.clipPath !== '')) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) hidden = true;
    }
    if (!hidden && el.parentElement) hidden = isHidden(el.parentElement);
    hiddenCache.set(el, hidden);
    return hidden;
  };
  const scrollsSideways = (el: Element): boolean => {
    const s = getComputedStyle(el);
    return (s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
  };
  const scrollFrame = (el: Element): Element | null => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (scrollsSideways(p)) return p;
    return null;
  };
  const ownText = (el: Element): string =>
    Array.from(el.childNodes)
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent ?? '')
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();

  const docOverflow = document.documentElement.scrollWidth - width;
  if (docOverflow > 1) result.overflow.push(`document is ${docOverflow}px wider than the ${width}px viewport`);

  const all = Array.from(document.body.querySelectorAll('*')).filter((el) => !el.closest('svg, script, style, noscript, template'));
  const clippedCandidates: Element[] = [];
  for (const el of all) {
    if (isHidden(el)) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;
    const style = getComputedStyle(el);
    // stored and user-entered values (names, e-mails, logged server messages) are marked translate="no": data, not
    // product strings, so they are left out of the untranslated-text check (still measured for overflow and clipping)
    if (!el.closest('[translate="no"]')) {
      const text = ownText(el);
      if (text) result.texts.push(text);
      for (const attr of ['placeholder', 'aria-label', 'title', 'alt']) {
        const value = el.getAttribute(attr)?.trim();
        if (value) result.texts.push(value);
      }
    }
    const fixed = style.position === 'fixed';
    if (rect.right > width + 1 && !scrollFrame(el) && !(fixed && rect.left >= width)) {
      result.overflow.push(`${describe(el)} ends at ${Math.round(rect.right)}px`);
    }
    const scroller = style.overflowX === 'auto' || style.overflowX === 'scroll';
    if (!scroller && el.clientWidth > 0 && (el.textContent ?? '').trim() !== '' && el.scrollWidth > el.clientWidth + 1) {
      clippedCandidates.push(el);
    }
    if (el.matches('a[href], button, input, select, textarea, [role=button], [role=combobox]')) {
      const frame = scrollFrame(el);
      if (frame) {
        const f = frame.getBoundingClientRect();
        if (rect.left < f.left - 1 || rect.right > f.right + 1) result.hiddenControls.push(`${describe(el)} outside its scrolling frame (${describe(frame).slice(0, 40)})`);
      }
    }
  }
  // report the innermost box only (its ancestors overflow because of it)
  for (const el of clippedCandidates) {
    if (clippedCandidates.some((other) => other !== el && el.contains(other))) continue;
    const style = getComputedStyle(el);
    const full = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    const titled = (el.closest('[title]')?.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim();
    const ellipsis = style.textOverflow === 'ellipsis';
    if (ellipsis && titled.includes(full)) continue;
    result.clipped.push(`${describe(el)} (${el.scrollWidth}px of text in ${el.clientWidth}px${ellipsis ? ', ellipsis without title' : ''})`);
  }
  result.texts = Array.from(new Set(result.texts));
  for (const table of Array.from(document.querySelectorAll('table'))) {
    const fonts = new Map<string, Element[]>();
    for (const cell of Array.from(table.querySelectorAll('tbody td[data-label]'))) {
      if (isHidden(cell)) continue;
      const before = getComputedStyle(cell, '::before');
      if (before.content === 'none' || before.display === 'none') continue;
      const font = `${before.fontFamily}; text-align ${before.textAlign}`;
      fonts.set(font, [...(fonts.get(font) ?? []), cell]);
    }
    if (fonts.size > 1) {
      const [common] = [...fonts.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
      for (const [font, cells] of fonts) if (font !== common) result.cardLabels.push(`${describe(cells[0]!)} label in ${font.slice(0, 40)}…${font.slice(font.indexOf('; text-align'))}`);
    }
  }
  return result;
}
