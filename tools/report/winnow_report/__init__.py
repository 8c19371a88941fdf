"""winnow's reports: `reproduce` (the papers' reports of `winnow reproduce`), `report` (any `winnow
bench` folder), `held_back_images` (the real images `winnow reproduce moreira` runs) and `index`
(docs/results/README.md from the reports kept there). See tools/report/README.md."""
