-- A plan's places checked and taken in one statement (decision 0080). Before, every limited create sent two: the
-- subscription read when the use case asked for the place (is the system active? what is the plan's limit?) and the
-- conditional UPDATE of the pharmacy's counters row right before COMMIT. take_plan_places does both where the UPDATE
-- was, and says no by raising an error of its own, which the server maps to the same answers as before
-- (platform/errors.ts):
--   SQLSTATE PPL01  'Subscription not active'  (402 SUBSCRIPTION_NOT_ACTIVE)
--   SQLSTATE PPL02  the places do not fit; DETAIL is {"limit": L, "usage": U}  (402 LIMIT_EXCEEDED, the same message)
-- The rules are the domain's (packages/domain/src/subscription.ts, evaluateSubscription and planLimit), evaluated at
-- the request's clock p_now: the system is active when the licence is (status 'active', or a trial whose end, the
-- trial end date else the end date, is not past) and hosting is (a running trial, or hosting paid until after now).
-- Stored instants are compared at millisecond precision, as the server reads them. A pharmacy without a subscription
-- gets the trial p_trial (the server's newTrialSubscription at the request's clock), as loadSubscription does; one
-- without a counters row gets it from its rows (insertUsageFromRows). p_requested 0 checks the subscription only.
-- The counters row's lock is taken by the UPDATE, so it is held only from here to COMMIT; a concurrent taker waits
-- for it and then tests the committed value (issue 6 item 7).
CREATE FUNCTION take_plan_places(p_pharmacy_id text, p_resource text, p_requested integer, p_now timestamptz, p_trial jsonb)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_status text;
  v_trial_end timestamptz;
  v_hosting_until timestamptz;
  v_limit integer;
  v_usage integer;
  v_trial_running boolean;
  v_taken integer;
BEGIN
  SELECT s.status, coalesce(s.trial_end_date, s.end_date), s.hosting_paid_until,
         CASE p_resource WHEN 'products' THEN s.max_products WHEN 'transactions' THEN s.max_transactions
                         WHEN 'users' THEN s.max_users WHEN 'branches' THEN s.max_branches END
    INTO v_status, v_trial_end, v_hosting_until, v_limit
    FROM subscriptions s WHERE s.pharmacy_id = p_pharmacy_id;
  IF NOT FOUND THEN
    -- Two first reads at once: the second keeps the first one's trial (as loadSubscription).
    PERFORM pg_advisory_xact_lock(hashtext('subscription:' || p_pharmacy_id));
    INSERT INTO subscriptions (pharmacy_id, plan_id, status, start_date, trial_end_date, end_date, hosting_paid_until,
                               max_products, max_transactions, max_users, max_branches, initialized_by, initialization_method)
    VALUES (p_pharmacy_id, p_trial ->> 'planId', p_trial ->> 'status', (p_trial ->> 'startDate')::timestamptz,
            (p_trial ->> 'trialEndDate')::timestamptz, (p_trial ->> 'endDate')::timestamptz, (p_trial ->> 'hostingPaidUntil')::timestamptz,
            (p_trial ->> 'maxProducts')::integer, (p_trial ->> 'maxTransactions')::integer, (p_trial ->> 'maxUsers')::integer,
            (p_trial ->> 'maxBranches')::integer, NULL, 'auto_on_read')
    ON CONFLICT (pharmacy_id) DO NOTHING;
    SELECT s.status, coalesce(s.trial_end_date, s.end_date), s.hosting_paid_until,
           CASE p_resource WHEN 'products' THEN s.max_products WHEN 'transactions' THEN s.max_transactions
                           WHEN 'users' THEN s.max_users WHEN 'branches' THEN s.max_branches END
      INTO v_status, v_trial_end, v_hosting_until, v_limit
      FROM subscriptions s WHERE s.pharmacy_id = p_pharmacy_id;
  END IF;
  IF v_limit IS NULL THEN
    RAISE EXCEPTION 'take_plan_places: unknown resource %', p_resource USING ERRCODE = 'invalid_parameter_value';
  END IF;

  v_trial_running := v_status = 'trial' AND v_trial_end IS NOT NULL AND p_now <= date_trunc('milliseconds', v_trial_end);
  IF NOT ((v_status = 'active' OR v_trial_running)
          AND (v_trial_running OR (v_hosting_until IS NOT NULL AND date_trunc('milliseconds', v_hosting_until) > p_now))) THEN
    RAISE EXCEPTION 'Subscription not active' USING ERRCODE = 'PPL01';
  END IF;
  IF p_requested = 0 THEN
    RETURN;
  END IF;

  FOR attempt IN 1..2 LOOP
    IF p_resource = 'products' THEN
      UPDATE usage_counters SET products = products + p_requested, updated_at = now()
       WHERE pharmacy_id = p_pharmacy_id AND (v_limit < 0 OR products + p_requested <= v_limit);
    ELSIF p_resource = 'transactions' THEN
      UPDATE usage_counters SET transactions = transactions + p_requested, updated_at = now()
       WHERE pharmacy_id = p_pharmacy_id AND (v_limit < 0 OR transactions + p_requested <= v_limit);
    ELSIF p_resource = 'users' THEN
      UPDATE usage_counters SET users = users + p_requested, updated_at = now()
       WHERE pharmacy_id = p_pharmacy_id AND (v_limit < 0 OR users + p_requested <= v_limit);
    ELSE
      UPDATE usage_counters SET branches = branches + p_requested, updated_at = now()
       WHERE pharmacy_id = p_pharmacy_id AND (v_limit < 0 OR branches + p_requested <= v_limit);
    END IF;
    GET DIAGNOSTICS v_taken = ROW_COUNT;
    IF v_taken > 0 THEN
      RETURN;
    END IF;
    -- Not taken: the usage to report, and the counters row of a pharmacy that has none (then one more try).
    SELECT CASE p_resource WHEN 'products' THEN c.products WHEN 'transactions' THEN c.transactions
                           WHEN 'users' THEN c.users ELSE c.branches END
      INTO v_usage FROM usage_counters c WHERE c.pharmacy_id = p_pharmacy_id;
    IF NOT FOUND THEN
      INSERT INTO usage_counters (pharmacy_id, products, users, branches)
      SELECT p_pharmacy_id,
             (SELECT count(*) FROM products x WHERE x.pharmacy_id = p_pharmacy_id),
             (SELECT count(*) FROM memberships m WHERE m.pharmacy_id = p_pharmacy_id AND m.is_active AND m.role <> 'demo'),
             (SELECT count(*) FROM branches b WHERE b.pharmacy_id = p_pharmacy_id AND b.is_active)
      ON CONFLICT (pharmacy_id) DO NOTHING;
      SELECT CASE p_resource WHEN 'products' THEN c.products WHEN 'transactions' THEN c.transactions
                             WHEN 'users' THEN c.users ELSE c.branches END
        INTO v_usage FROM usage_counters c WHERE c.pharmacy_id = p_pharmacy_id;
    END IF;
    EXIT WHEN attempt = 2;
  END LOOP;
  RAISE EXCEPTION 'Limit exceeded. Plan allows %, current usage: %', v_limit, coalesce(v_usage, 0)
    USING ERRCODE = 'PPL02', DETAIL = json_build_object('limit', v_limit, 'usage', coalesce(v_usage, 0))::text;
END $$;
