/** The focus outline of interactive recipe parts. */
export const focusRing = { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' } as const;
