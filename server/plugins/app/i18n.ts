import fp from 'fastify-plugin';
import { loadMessages, negotiateLanguage, translate, FALLBACK_LANGUAGE } from '../../i18n/index';

/** Sets `request.lang` from the `locale` header or Accept-Language, and `request.t(code)`. */
export default fp(async (app) => {
  await loadMessages();
  app.decorateRequest('lang', FALLBACK_LANGUAGE);
  app.decorateRequest('t', function (this: { lang: typeof FALLBACK_LANGUAGE }, code: string, params?: Record<string, string | number>) {
    return translate(this.lang, code, params);
  });
  app.addHook('onRequest', (req, _reply, done) => {
    const locale = req.headers['locale'];
    req.lang = negotiateLanguage(Array.isArray(locale) ? locale[0] : locale, req.headers['accept-language']);
    done();
  });
});
