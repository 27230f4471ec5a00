import { describe, expect, it } from 'vitest';
import * as profile from '../../contract/profile';
import { createUpload } from '../../src/api/call';
import type { ApiRequestOptions } from '../../src/api/index';

describe('upload (multipart endpoints of the contract)', () => {
  it("sends the form as the body to the endpoint's method and path", async () => {
    const sent: Array<{ method: string; url: string; options: ApiRequestOptions }> = [];
    const upload = createUpload(async (method, url, options) => {
      sent.push({ method, url, options });
      return { data: { avatar_url: '/api/avatars/x.png' } };
    });
    const form = new FormData();
    form.append('avatar', new Blob(['png']), 'a.png');
    const signal = new AbortController().signal;
    const answer = await upload(profile.byKind.admin.uploadAvatar, form, { signal });
    expect(answer.data.avatar_url).toBe('/api/avatars/x.png');
    expect(sent).toEqual([{ method: 'POST', url: '/api/admin/avatar', options: { body: form, signal } }]);
  });
});
