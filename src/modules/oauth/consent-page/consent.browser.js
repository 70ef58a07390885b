// The hosted consent page's script (served as /oauth/assets/consent.js; plain browser JavaScript,
// no build step). Signs the user in with the platform's own routes, then posts the decision with the
// user's token and the page's anti-forgery token, and follows the answer back into the
// authorization endpoint. The sign-in made here ends once the decision is posted.
(() => {
  const main = document.getElementById('consent');
  if (!main) return;
  const { uid, csrf, firstParty } = main.dataset;
  const errorBox = document.getElementById('error');
  let session = null;
  let mfaChallengeToken = null;

  const show = (id) => {
    for (const step of ['step-sign-in', 'step-mfa', 'step-consent']) document.getElementById(step).hidden = step !== id;
  };
  const fail = (message) => {
    errorBox.textContent = message;
    errorBox.hidden = false;
  };
  const busy = (form, on) => {
    for (const button of form.querySelectorAll('button')) button.disabled = on;
  };

  async function postJson(path, body) {
    const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await response.json().catch(() => null);
    if (!response.ok) throw new Error(answer?.error?.message ?? `The server answered ${response.status}`);
    return answer.data;
  }

  function signedIn(data) {
    if (data.mfaRequired) {
      mfaChallengeToken = data.mfaChallengeToken;
      show('step-mfa');
      document.querySelector('#mfa input').focus();
      return;
    }
    session = data;
    const teams = data.user?.teams ?? [];
    if (teams.length === 0) return fail('Your account is not a member of any team, so there is nothing to allow access to.');
    const select = document.getElementById('team');
    select.replaceChildren(...teams.map((team) => new Option(team.name, team.teamSimplyId)));
    show('step-consent');
    // a first-party application needs no consent: with one team there is nothing to choose either
    if (firstParty === 'true' && teams.length === 1) decide('approve');
  }

  async function decide(decision) {
    const form = document.getElementById('decide');
    busy(form, true);
    errorBox.hidden = true;
    try {
      const response = await fetch(`/oauth/interaction/${encodeURIComponent(uid)}/decision`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${session.accessToken}`,
          'x-team-id': document.getElementById('team').value,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ decision, csrf }).toString(),
      });
      const answer = await response.json().catch(() => null);
      if (!response.ok) throw new Error(answer?.error_description ?? answer?.error?.message ?? `The server answered ${response.status}`);
      // the sign-in was only for this decision
      if (session.refreshToken) await postJson('/v1/auth/logout', { refreshToken: session.refreshToken }).catch(() => {});
      window.location.assign(answer.redirectTo);
    } catch (error) {
      fail(error.message);
      busy(form, false);
    }
  }

  document.getElementById('sign-in').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    busy(form, true);
    errorBox.hidden = true;
    try {
      signedIn(await postJson('/v1/auth/login', { email: form.email.value, password: form.password.value, platform: 'web', deviceName: 'OAuth consent page' }));
    } catch (error) {
      fail(error.message);
    } finally {
      busy(form, false);
    }
  });

  document.getElementById('mfa').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const value = form.code.value.trim();
    busy(form, true);
    errorBox.hidden = true;
    try {
      const second = /^\d{6}$/.test(value) ? { code: value } : { recoveryCode: value };
      signedIn(await postJson('/v1/auth/login/mfa', { mfaChallengeToken, ...second }));
    } catch (error) {
      fail(error.message);
    } finally {
      busy(form, false);
    }
  });

  document.getElementById('decide').addEventListener('submit', (event) => {
    event.preventDefault();
    decide(event.submitter?.value === 'deny' ? 'deny' : 'approve');
  });
})();
