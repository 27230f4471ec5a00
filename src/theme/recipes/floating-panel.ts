/** The surface of a floating panel (a select's list, a menu, a date picker's calendar): raised above the page. */
export const floatingPanel = { bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'md', boxShadow: 'md' } as const;
