-- The newest environment newer than each one, found without pairing every
-- environment of a model with every other.
--
-- Migration 16 paired each environment with every other of its kind and
-- model and ranked the newer ones: at 400 builds of one simulator that is
-- 160,000 pairs, and every report, status and compare paid it (0.37 s; the
-- report at 16x the environments took 37x the time). Now each environment
-- walks an index of its kind and model from the newest down and stops at the
-- first environment that is newer and counts: the one migration 16 ranked
-- first, as the same ordering and the same tests decide it. Most stop at the
-- first or second; only a current environment reads its whole group.

CREATE INDEX environments_newest_first ON environments (
    kind, model, os_version_order DESC, os_build_order DESC, tool_version_order DESC, tool_build_order DESC, id DESC);

DROP VIEW environment_status;

CREATE VIEW environment_status AS
WITH newest AS (
    SELECT e.id AS environment_id, (
        SELECT o.id FROM environments AS o INDEXED BY environments_newest_first
        WHERE o.kind = e.kind AND o.model = e.model AND o.id <> e.id
          AND ((CASE WHEN o.os_build <> '' AND e.os_build <> '' THEN o.os_build_order > e.os_build_order
                     ELSE o.os_version_order > e.os_version_order
                          OR (o.os_version_order = e.os_version_order AND o.os_build <> '' AND e.os_build = ''
                              AND NOT (e.kind = 'simulator' AND e.tool_build <> '' AND o.tool_build = e.tool_build)) END)
               OR (CASE WHEN o.tool_build <> '' AND e.tool_build <> '' THEN o.tool_build_order > e.tool_build_order
                        ELSE o.tool_version_order > e.tool_version_order
                             OR (o.tool_version_order = e.tool_version_order AND o.tool_build <> '' AND e.tool_build = '') END))
          -- It counts as recorded: a run that is not retracted and holds no
          -- results, or a result that is not retracted. A retracted run on a
          -- mistyped build never makes real evidence stale.
          AND EXISTS (
              SELECT 1 FROM runs AS u
              WHERE u.environment_id = o.id
                AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.run_id = u.id)
                AND (NOT EXISTS (SELECT 1 FROM results AS r WHERE r.run_id = u.id)
                     OR EXISTS (SELECT 1 FROM results AS r WHERE r.run_id = u.id
                                AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id))))
        ORDER BY o.os_version_order DESC, o.os_build_order DESC, o.tool_version_order DESC, o.tool_build_order DESC, o.id DESC
        LIMIT 1) AS newest_id
    FROM environments AS e
),
flagged AS (
    SELECT w.environment_id, o.*,
           CASE WHEN o.os_build <> '' AND e.os_build <> '' THEN o.os_build_order > e.os_build_order
                ELSE o.os_version_order > e.os_version_order
                     OR (o.os_version_order = e.os_version_order AND o.os_build <> '' AND e.os_build = ''
                         AND NOT (e.kind = 'simulator' AND e.tool_build <> '' AND o.tool_build = e.tool_build)) END
               AS os_newer,
           CASE WHEN o.tool_build <> '' AND e.tool_build <> '' THEN o.tool_build_order > e.tool_build_order
                ELSE o.tool_version_order > e.tool_version_order
                     OR (o.tool_version_order = e.tool_version_order AND o.tool_build <> '' AND e.tool_build = '') END
               AS tool_newer
    FROM newest AS w
    JOIN environments AS e ON e.id = w.environment_id
    JOIN environments AS o ON o.id = w.newest_id
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
LEFT JOIN flagged AS n ON n.environment_id = e.id;
