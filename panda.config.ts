import { defineConfig } from '@pandacss/dev';
import { recipes, slotRecipes } from './src/theme/recipes';
import { globalCss } from './src/theme/global-css';
import { semanticTokens, tokens, textStyles } from './src/theme/tokens';

export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  outdir: 'styled-system',
  jsxFramework: 'react',
  strictTokens: false,
  globalCss,
  theme: {
    extend: {
      tokens,
      semanticTokens,
      textStyles,
      recipes,
      slotRecipes,
      keyframes: {
        loadingBar: { '0%': { left: '-40%' }, '100%': { left: '100%' } },
      },
    },
  },
  // The UI kit wraps recipes through createStyleContext, which the static
  // extractor cannot follow, so every recipe variant is generated.
  staticCss: {
    recipes: '*',
  },
});
