import { defineSemanticTokens, defineTextStyles, defineTokens } from '@pandacss/dev';

export const tokens = defineTokens({
  colors: {
    brand: {
      50: { value: '#eff6ff' },
      100: { value: '#dbeafe' },
      200: { value: '#bfdbfe' },
      300: { value: '#93c5fd' },
      400: { value: '#60a5fa' },
      500: { value: '#3b82f6' },
      600: { value: '#2563eb' },
      700: { value: '#1d4ed8' },
      800: { value: '#1e40af' },
      900: { value: '#1e3a8a' },
    },
    neutral: {
      0: { value: '#ffffff' },
      50: { value: '#f8fafc' },
      100: { value: '#f1f5f9' },
      200: { value: '#e2e8f0' },
      300: { value: '#cbd5e1' },
      400: { value: '#94a3b8' },
      500: { value: '#64748b' },
      600: { value: '#475569' },
      700: { value: '#334155' },
      800: { value: '#1e293b' },
      900: { value: '#0f172a' },
    },
    danger: {
      50: { value: '#fef2f2' },
      500: { value: '#ef4444' },
      600: { value: '#dc2626' },
      700: { value: '#b91c1c' },
    },
    success: {
      50: { value: '#f0fdf4' },
      600: { value: '#16a34a' },
      700: { value: '#15803d' },
    },
    warning: {
      50: { value: '#fffbeb' },
      600: { value: '#d97706' },
      700: { value: '#b45309' },
    },
  },
  fonts: {
    body: { value: "'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
    heading: { value: "'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
    mono: { value: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace" },
  },
  radii: {
    xs: { value: '2px' },
    sm: { value: '4px' },
    md: { value: '6px' },
    lg: { value: '8px' },
    xl: { value: '12px' },
    '2xl': { value: '16px' },
    full: { value: '9999px' },
  },
  spacing: {
    sidebarOpen: { value: '256px' },
    sidebarClosed: { value: '80px' },
    header: { value: '64px' },
  },
  sizes: {
    sidebarOpen: { value: '256px' },
    sidebarClosed: { value: '80px' },
    header: { value: '64px' },
    selectMenuMax: { value: '300px' },
    selectMenuMin: { value: '140px' },
  },
  shadows: {
    xs: { value: '0 1px 2px rgba(15, 23, 42, 0.06)' },
    sm: { value: '0 1px 3px rgba(15, 23, 42, 0.1), 0 1px 2px rgba(15, 23, 42, 0.06)' },
    md: { value: '0 4px 12px rgba(15, 23, 42, 0.12)' },
    lg: { value: '0 12px 32px rgba(15, 23, 42, 0.18)' },
  },
  durations: {
    fast: { value: '120ms' },
    normal: { value: '200ms' },
  },
  zIndex: {
    sidebar: { value: 20 },
    header: { value: 30 },
    overlay: { value: 40 },
    modal: { value: 50 },
    popover: { value: 60 },
    toast: { value: 70 },
  },
});

export const semanticTokens = defineSemanticTokens({
  colors: {
    bg: {
      canvas: { value: '{colors.neutral.50}' },
      surface: { value: '{colors.neutral.0}' },
      subtle: { value: '{colors.neutral.100}' },
      muted: { value: '{colors.neutral.200}' },
      sidebar: { value: '{colors.neutral.900}' },
      sidebarHover: { value: '{colors.neutral.800}' },
      sidebarActive: { value: '{colors.brand.700}' },
    },
    fg: {
      default: { value: '{colors.neutral.900}' },
      muted: { value: '{colors.neutral.600}' },
      subtle: { value: '{colors.neutral.500}' },
      inverted: { value: '{colors.neutral.0}' },
      sidebar: { value: '{colors.neutral.200}' },
      error: { value: '{colors.danger.700}' },
      success: { value: '{colors.success.700}' },
    },
    border: {
      default: { value: '{colors.neutral.200}' },
      strong: { value: '{colors.neutral.300}' },
      error: { value: '{colors.danger.600}' },
    },
    accent: {
      default: { value: '{colors.brand.700}' },
      emphasized: { value: '{colors.brand.800}' },
      subtle: { value: '{colors.brand.50}' },
      fg: { value: '{colors.neutral.0}' },
      text: { value: '{colors.brand.700}' },
    },
    danger: {
      default: { value: '{colors.danger.600}' },
      emphasized: { value: '{colors.danger.700}' },
      subtle: { value: '{colors.danger.50}' },
    },
    focusRing: { value: '{colors.brand.500}' },
  },
});

export const textStyles = defineTextStyles({
  pageTitle: { value: { fontSize: '2xl', fontWeight: 'semibold', lineHeight: '2rem' } },
  sectionTitle: { value: { fontSize: 'lg', fontWeight: 'semibold', lineHeight: '1.75rem' } },
  body: { value: { fontSize: 'sm', lineHeight: '1.25rem' } },
});
