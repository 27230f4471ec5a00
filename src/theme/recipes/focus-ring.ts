/** The focus outline of interactive recipe parts. */
export const focusRing = { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' } as const;

/** The focus of an invalid field: its error border stays, the focus ring is drawn outside it. */
export const invalidFocus = { borderColor: 'border.error', boxShadow: 'none', outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' } as const;
