-- A missing OS build is not an older one where the data says which it was.
--
-- A simulator's OS build comes with its runtime, and Xcode ships one
-- simulator runtime per OS version: a simulator of one model, OS version and
-- Xcode build ran the same runtime whether or not its OS build was recorded.
-- One log with the OS build read from simctl no longer makes the team's
-- results on the same simulator, logged without it, stale. A device has no
-- such rule (its OS build is the phone's own): `log` says how many claims'
-- evidence a newly recorded OS build makes stale only because earlier runs
-- recorded none.

DROP VIEW environment_status;

CREATE VIEW environment_status AS
WITH counted AS (
    -- Environments that count as recorded: those with a run that is not
    -- retracted and holds no results, or a result that is not retracted. A
    -- retracted run on a mistyped build never makes real evidence stale.
    SELECT e.* FROM environments AS e
    WHERE EXISTS (
        SELECT 1 FROM runs AS u
        WHERE u.environment_id = e.id
          AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.run_id = u.id)
          AND (NOT EXISTS (SELECT 1 FROM results AS r WHERE r.run_id = u.id)
               OR EXISTS (SELECT 1 FROM results AS r WHERE r.run_id = u.id
                          AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id))))
),
pairs AS (
    SELECT e.id AS environment_id, o.id AS other_id,
           CASE WHEN o.os_build <> '' AND e.os_build <> '' THEN o.os_build_order > e.os_build_order
                ELSE o.os_version_order > e.os_version_order
                     OR (o.os_version_order = e.os_version_order AND o.os_build <> '' AND e.os_build = ''
                         -- A simulator of the same Xcode build ran the one runtime Xcode ships for
                         -- that OS version: the OS build recorded elsewhere is its own, not a newer one.
                         AND NOT (e.kind = 'simulator' AND e.tool_build <> '' AND o.tool_build = e.tool_build)) END
               AS os_newer,
           CASE WHEN o.tool_build <> '' AND e.tool_build <> '' THEN o.tool_build_order > e.tool_build_order
                ELSE o.tool_version_order > e.tool_version_order
                     OR (o.tool_version_order = e.tool_version_order AND o.tool_build <> '' AND e.tool_build = '') END
               AS tool_newer
    FROM environments AS e
    JOIN counted AS o ON o.kind = e.kind AND o.model = e.model AND o.id <> e.id
),
newest AS (
    SELECT p.environment_id, p.os_newer, p.tool_newer, o.*,
           row_number() OVER (PARTITION BY p.environment_id
                              ORDER BY o.os_version_order DESC, o.os_build_order DESC, o.tool_version_order DESC,
                                       o.tool_build_order DESC, o.id DESC) AS rank
    FROM pairs AS p JOIN environments AS o ON o.id = p.other_id
    WHERE p.os_newer OR p.tool_newer
)
SELECT
    e.id AS environment_id,
    e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build,
    e.model || ' ' || e.kind
        || CASE WHEN e.os_name || e.os_version <> ''
                THEN ', ' || trim(e.os_name || ' ' || e.os_version) ELSE '' END
        || CASE WHEN e.os_build <> '' THEN ' (' || e.os_build || ')' ELSE '' END
        || CASE WHEN e.tool_name || e.tool_version <> ''
                THEN ', ' || trim(e.tool_name || ' ' || e.tool_version) ELSE '' END
        || CASE WHEN e.tool_build <> '' THEN ' (' || e.tool_build || ')' ELSE '' END
        AS description,
    CASE WHEN n.environment_id IS NULL THEN 1 ELSE 0 END AS is_current,
    n.id AS newest_environment_id,
    trim(CASE WHEN n.os_newer
              THEN 'OS ' || coalesce(nullif(trim(n.os_name || ' ' || n.os_version), ''), 'with no version')
                   || CASE WHEN n.os_build <> '' THEN ' (' || n.os_build || ')' ELSE '' END
              ELSE '' END
         || CASE WHEN n.tool_newer
                 THEN ' ' || coalesce(nullif(trim(n.tool_name || ' ' || n.tool_version), ''), 'tool with no version')
                      || CASE WHEN n.tool_build <> '' THEN ' (' || n.tool_build || ')' ELSE '' END
                 ELSE '' END) AS newer_builds
FROM environments AS e
LEFT JOIN newest AS n ON n.environment_id = e.id AND n.rank = 1;
