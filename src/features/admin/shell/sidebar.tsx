import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { LogoMark } from '../../../components/logo';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/ui/icons-more';
import { visuallyHidden } from '../../../components/visually-hidden';
import type { AdminRole } from '../../../lib/current-admin';
import { navItemsForRole } from './nav-items';

export const SIDEBAR_ID = 'admin-sidebar';
export const SIDEBAR_WIDTH_OPEN = 256;
export const SIDEBAR_WIDTH_CLOSED = 80;

export interface SidebarProps {
  role: AdminRole | null;
  collapsed: boolean;
  onToggle: () => void;
}

// Labels wrap onto a second line rather than being cut (long French and Italian names, docs/SPEC.md §2).
const linkClass = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  minHeight: '10',
  px: '3',
  py: '2',
  borderRadius: 'md',
  color: 'fg.sidebar',
  textDecoration: 'none',
  fontSize: 'sm',
  fontWeight: 'medium',
  lineHeight: 'tight',
  overflowWrap: 'break-word',
  _hover: { bg: 'bg.sidebarHover', color: 'fg.inverted' },
  _focusVisible: { outline: '2px solid', outlineColor: 'brand.300', outlineOffset: '-2px' },
  '&[aria-current=page]': { bg: 'bg.sidebarActive', color: 'fg.inverted' },
  '& svg': { flexShrink: 0 },
});

/** Logo and panel name at the top of the sidebar and of the phone drawer. */
export function SidebarBrand({ expanded, title }: { expanded: boolean; title?: (label: string) => ReactNode }) {
  const { t } = useLingui();
  const label = t`Admin panel`;
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '2', minHeight: 'header', px: '5', py: '2', flexShrink: 0, borderBottomWidth: '1px', borderColor: 'neutral.800' })}>
      <LogoMark size={36} />
      {/* 'Verwaltungskonsole' is one long word: a size that fits it whole */}
      <span className={cx(css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.inverted', lineHeight: 'tight', overflowWrap: 'break-word', hyphens: 'auto', minWidth: '0' }), expanded ? undefined : visuallyHidden)}>
        {title ? title(label) : label}
      </span>
    </div>
  );
}

/** The role's navigation items; `onNavigate` closes the phone drawer. */
export function SidebarNav({ role, expanded, onNavigate }: { role: AdminRole | null; expanded: boolean; onNavigate?: () => void }) {
  const { t, i18n } = useLingui();
  const items = navItemsForRole(role);
  return (
    <nav aria-label={t`Main navigation`} className={css({ flex: '1', overflowY: 'auto', overflowX: 'hidden', p: '3' })}>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1', listStyle: 'none' })}>
        {items.map((item) => {
          const label = i18n._(item.label);
          const Icon = item.icon;
          return (
            <li key={item.to}>
              <Link to={item.to} onClick={onNavigate} className={cx(linkClass, css({ justifyContent: expanded ? 'flex-start' : 'center' }))} title={expanded ? undefined : label}>
                <Icon width={20} height={20} />
                <span className={expanded ? css({ minWidth: '0' }) : visuallyHidden}>{label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * Admin navigation from 768 px up: 256 px open, 80 px closed (persisted by the shell); while closed it expands over
 * the content on hover or keyboard focus. It sticks to the viewport inside a column as tall as the page, so the dark
 * band runs down the whole page. Phones get the drawer (nav-drawer.tsx) instead.
 */
export function Sidebar({ role, collapsed, onToggle }: SidebarProps) {
  const { t } = useLingui();
  const [peek, setPeek] = useState(false);
  const expanded = !collapsed || peek;

  return (
    <aside
      id={SIDEBAR_ID}
      data-state={collapsed ? 'closed' : 'open'}
      data-expanded={expanded ? '' : undefined}
      onMouseEnter={() => setPeek(true)}
      onMouseLeave={() => setPeek(false)}
      onFocus={() => setPeek(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setPeek(false);
      }}
      style={{ width: expanded ? SIDEBAR_WIDTH_OPEN : SIDEBAR_WIDTH_CLOSED }}
      className={css({
        position: 'sticky',
        top: '0',
        height: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        bg: 'bg.sidebar',
        color: 'fg.sidebar',
        transition: 'width token(durations.normal) ease',
        overflow: 'hidden',
        boxShadow: collapsed ? 'lg' : 'none',
        '&:not([data-expanded])': { boxShadow: 'none' },
      })}
    >
      <SidebarBrand expanded={expanded} />
      <SidebarNav role={role} expanded={expanded} />
      <div className={css({ p: '3', borderTopWidth: '1px', borderColor: 'neutral.800' })}>
        <button
          type="button"
          onClick={onToggle}
          aria-controls={SIDEBAR_ID}
          aria-expanded={!collapsed}
          aria-label={collapsed ? t`Expand sidebar` : t`Collapse sidebar`}
          className={cx(linkClass, css({ width: 'full', cursor: 'pointer', bg: 'transparent', justifyContent: expanded ? 'flex-start' : 'center' }))}
        >
          {collapsed ? <ChevronRightIcon width={20} height={20} /> : <ChevronLeftIcon width={20} height={20} />}
          <span aria-hidden="true" className={expanded ? undefined : visuallyHidden}>
            {collapsed ? <Trans>Expand</Trans> : <Trans>Collapse</Trans>}
          </span>
        </button>
      </div>
    </aside>
  );
}
